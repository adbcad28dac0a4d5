// Loads and validates scenario files and the model, topology and workload files they reference.
#pragma once

#include <string>

#include "core/file_source.hpp"
#include "scenario/scenario.hpp"

namespace zs::scenario {

/// Relative paths inside a file resolve against that file's directory. Every problem is a
/// core::InputError naming the file and JSON path; nothing is defaulted silently.
class ScenarioLoader {
 public:
  explicit ScenarioLoader(const core::FileSource& files) : files_(files) {}
  Scenario load(const std::string& path) const;

  /// Loads only a machine: from a machine file ({"kind": "machine", "topology", "models"}) or from
  /// the machine of a scenario file. `resolved` receives the machine's resolved configuration.
  topology::Machine load_machine(const std::string& path, nlohmann::json* resolved = nullptr) const;

 private:
  const core::FileSource& files_;
};

}  // namespace zs::scenario
