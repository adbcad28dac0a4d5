// Test helper: the shipped scenarios a user runs, scenarios/*.json and scenarios/planner/*.json, in order.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace zs::test {

/// Their paths, sorted (scenarios/validation holds `zettasim validate`'s rows, which are tables).
inline std::vector<std::string> shipped_scenario_paths() {
  std::vector<std::string> out;
  for (const char* folder : {"/scenarios", "/scenarios/planner"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(ZS_SOURCE_DIR) + folder))
      if (e.is_regular_file() && e.path().extension() == ".json") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace zs::test
