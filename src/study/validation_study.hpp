// A validation file's published rows, each simulated as a scenario through the normal path and compared.
#pragma once

#include <vector>

#include "core/file_source.hpp"
#include "core/progress.hpp"
#include "scenario/megatron_validation.hpp"

namespace zs::study {

struct ValidationStudy {
  std::vector<scenario::RowResult> rows;  ///< in the file's order
  scenario::ValidationSummary summary;
};

/// Runs every row of `spec` (its files read from `files`). A row whose configuration does not run (it
/// does not fit in memory, for example) is a result with its reason, not an error.
/// `progress` is told the rows done.
ValidationStudy run_validation(const core::FileSource& files, const scenario::ValidationSpec& spec,
                               core::ProgressSink* progress = nullptr);

}  // namespace zs::study
