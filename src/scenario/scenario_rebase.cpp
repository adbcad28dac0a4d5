// A scenario file moved to another folder: the paths it names rewritten to lead to the same files.
#include "scenario/scenario_rebase.hpp"

#include <filesystem>
#include <vector>

#include "core/file_source.hpp"

namespace zs::scenario {
namespace {

namespace fs = std::filesystem;

/// Stands for any key or index in a place below.
constexpr const char* kAnyKey = "*";

/// The places a scenario file names another file, relative to itself.
const std::vector<std::vector<std::string>>& path_places() {
  static const std::vector<std::vector<std::string>> places = {
      {"machine"},
      {"machine", "topology"},
      {"machine", "models", "*"},
      {"workload", "model"},
      {"workload", "software_stack"},
      {"workload", "routing", "histogram_file"},
      {"workload", "trace"},
      {"workload", "chakra"},
      {"reliability", "failure_rates"},
      {"reliability", "checkpoint", "file_system"},
      {"reliability", "checkpoint", "*", "file_system"},
      {"plugins", "*"},
      {"policies", "placement", "map"}};
  return places;
}

/// Rewrites the string values at `place[depth...]` under `node`.
void rebase_at(nlohmann::json& node, const std::vector<std::string>& place, size_t depth,
               const fs::path& from, const fs::path& to) {
  if (depth == place.size()) {
    if (!node.is_string() || fs::path(node.get<std::string>()).is_absolute()) return;
    const fs::path target = fs::absolute(from / node.get<std::string>()).lexically_normal();
    node = target.lexically_relative(to).generic_string();
    return;
  }
  const std::string& key = place[depth];
  if (key == kAnyKey) {
    if (node.is_object())
      for (auto& [_, child] : node.items()) rebase_at(child, place, depth + 1, from, to);
    if (node.is_array())
      for (auto& child : node) rebase_at(child, place, depth + 1, from, to);
    return;
  }
  if (node.is_object() && node.contains(key)) rebase_at(node[key], place, depth + 1, from, to);
}

}  // namespace

nlohmann::json rebased_scenario(nlohmann::json scenario, const std::string& from_file,
                                const std::string& to_folder) {
  const fs::path from = fs::absolute(fs::path(from_file)).parent_path().lexically_normal();
  const fs::path to = fs::absolute(fs::path(to_folder)).lexically_normal();
  for (const auto& place : path_places()) rebase_at(scenario, place, 0, from, to);
  return scenario;
}

}  // namespace zs::scenario
