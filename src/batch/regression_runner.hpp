// `zettasim regress`: runs a suite's cases as processes, compares their metrics with the baselines and,
// when asked, rewrites the baselines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "core/output_file.hpp"
#include "scenario/regression_check.hpp"
#include "scenario/regression_suite.hpp"

namespace zs::batch {

struct RegressionOptions {
  std::string suite;                 ///< the suite file
  bool update_baselines = false;     ///< rewrite the baselines with this run's values (atomically)
  unsigned jobs = 0;                 ///< cases at once; 0: one per core
  std::vector<std::string> plugins;  ///< --plugin: loaded by every case before its own plugins
  std::string executable;            ///< zettasim, whose `regress-case` runs one case
  std::string junit;                 ///< the JUnit XML file the caller writes afterwards; empty: none
  bool force = false;                ///< --force: `junit` may replace a file zettasim did not write
};

struct RegressionRun {
  scenario::RegressionSuite suite;
  scenario::RegressionOutcome outcome;
  std::optional<core::OutputFile> junit;  ///< where the JUnit XML goes, checked before any case ran
};

/// Reads the suite and its baselines (problems are InputErrors, before any case runs), runs every case as
/// `EXECUTABLE regress-case SUITE INDEX RECORD [--plugin P]...`, at most `jobs` at once, and checks each
/// case's metrics. A case whose process ends without a record is an error of that case.
RegressionRun run_regression(const core::FileSource& files, const RegressionOptions& options);

/// What a case's process does (`zettasim regress-case`): runs case `index` of the suite and writes its
/// record to `record_file`, atomically.
void run_regression_case_process(const std::string& suite_file, size_t index, const std::string& record_file,
                                 const std::vector<std::string>& plugins);

}  // namespace zs::batch
