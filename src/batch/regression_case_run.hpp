// Runs one case of a regression suite in this process and records its result.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/regression_suite.hpp"

namespace zs::batch {

/// The record of case `index`: {"case", "status": "ok", "result": summary.json or goodput.json} when it
/// ran, or {"case", "status": "error", "error": one line} when its scenario, a plugin or the study failed.
/// `plugins`: loaded before the case's own (the command line's --plugin).
nlohmann::json run_regression_case(const core::FileSource& files, const scenario::RegressionSuite& suite,
                                   size_t index, const std::vector<std::string>& plugins = {});

}  // namespace zs::batch
