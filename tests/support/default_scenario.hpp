// Test helper: the shipped default scenario with its workload section edited, written and loaded.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

namespace zs::test {

/// The shipped default scenario (8 H100s on NVLink, the 1.3B GPT data-parallel 8, megatron) with `edit`
/// applied to its workload section, written to `name` in `dir` with absolute paths and loaded.
inline scenario::Scenario default_scenario_with(const TempDir& dir, const std::string& name,
                                                const std::function<void(nlohmann::json&)>& edit) {
  core::DiskFileSource disk;
  nlohmann::json d = disk.read_json(source_file("scenarios/default.json"));
  d["machine"]["topology"] = source_file("topologies/hgx-h100-8.json");
  for (auto& [key, path] : d["machine"]["models"].items())
    path = source_file("models/" + std::filesystem::path(path.get<std::string>()).filename().string());
  d["workload"]["model"] = source_file("workloads/gpt3-1.3b.json");
  edit(d["workload"]);
  std::ofstream(dir.file(name)) << d.dump();
  return scenario::ScenarioLoader(disk).load(dir.file(name));
}

}  // namespace zs::test
