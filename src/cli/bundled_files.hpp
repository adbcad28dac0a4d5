// The shipped scenario, model, topology and workload files, embedded in the binary at build time.
#pragma once

#include <map>
#include <string>

namespace zs::cli {

/// Repository-relative path ("scenarios/default.json") to file content.
std::map<std::string, std::string> bundled_files();

/// The scenario `zettasim run` uses when given none.
inline constexpr const char* kDefaultScenario = "scenarios/default.json";

}  // namespace zs::cli
