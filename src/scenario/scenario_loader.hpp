// Loads and validates scenario files and the model, topology and workload files they reference.
#pragma once

#include <memory>
#include <string>

#include "core/file_source.hpp"
#include "scenario/catalog.hpp"
#include "scenario/scenario.hpp"

namespace zs::scenario {

/// Relative paths inside a file resolve against that file's directory. Every problem is a
/// core::InputError naming the file and JSON path; nothing is defaulted silently. Generators and policies
/// are looked up in a Catalog: the built-ins, or one the caller extended (and keeps alive).
class ScenarioLoader {
 public:
  explicit ScenarioLoader(const core::FileSource& files)
      : files_(files), catalog_(std::make_shared<Catalog>()) {}
  ScenarioLoader(const core::FileSource& files, const Catalog& catalog)
      : files_(files), catalog_(std::shared_ptr<const Catalog>(), &catalog) {}
  Scenario load(const std::string& path) const;

  /// Loads only a machine: from a machine file ({"kind": "machine", "topology", "models"}) or from
  /// the machine of a scenario file. `resolved` receives the machine's resolved configuration.
  topology::Machine load_machine(const std::string& path, nlohmann::json* resolved = nullptr) const;

 private:
  const core::FileSource& files_;
  std::shared_ptr<const Catalog> catalog_;  ///< owned only when built here
};

}  // namespace zs::scenario
