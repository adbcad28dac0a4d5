// A published-runs validation: every run's scenario simulated through the normal path and compared.
#pragma once

#include <vector>

#include "core/file_source.hpp"
#include "core/progress.hpp"
#include "scenario/published_runs.hpp"

namespace zs::study {

struct PublishedRunsStudy {
  std::vector<scenario::PublishedRunResult> runs;  ///< in the file's order
  scenario::PublishedRunsSummary summary;
};

/// Loads and simulates every run's scenario (read from `files`) once. A run whose scenario is refused (it
/// does not fit in memory, for example) is a result with the reason, not an error. `progress` is told the
/// runs done.
PublishedRunsStudy run_published_runs(const core::FileSource& files, const scenario::PublishedRunsSpec& spec,
                                      core::ProgressSink* progress = nullptr);

}  // namespace zs::study
