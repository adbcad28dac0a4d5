// Loads and validates scenario files and the model, topology and workload files they reference.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "core/param_reader.hpp"
#include "scenario/catalog.hpp"
#include "scenario/scenario.hpp"
#include "topology/topology.hpp"
#include "workload/megatron_generator.hpp"

namespace zs::scenario {

/// Bounds on the work one scenario may ask for before anything that large is built: a caller raises them
/// for machines or traces beyond the defaults, or lowers them (the fuzz targets do) to keep each load fast.
struct LoadLimits {
  uint64_t max_machine_nodes = topology::kMaxMachineNodes;  ///< units, switches and memory pools
  uint64_t max_trace_ops = workload::kMaxGeneratedOps;      ///< ops of a generated trace, all roles
  uint64_t max_sweep_points = 1000000;                      ///< points of one sweep, and samples drawn
};

/// The plugin files a scenario file lists under "plugins", resolved against the file's folder (empty when
/// it lists none). A front end loads them into its catalog before loading the scenario against it. Throws
/// core::InputError for a "plugins" that is not an array of strings.
std::vector<std::string> scenario_plugin_files(const core::FileSource& files, const std::string& path);

/// Relative paths inside a file resolve against that file's directory. Every problem is a
/// core::InputError naming the file and JSON path; nothing is defaulted silently. Generators and policies
/// are looked up in a Catalog: the built-ins, or one the caller extended (and keeps alive).
class ScenarioLoader {
 public:
  explicit ScenarioLoader(const core::FileSource& files, LoadLimits limits = {})
      : files_(files), catalog_(std::make_shared<Catalog>()), limits_(limits) {}
  ScenarioLoader(const core::FileSource& files, const Catalog& catalog, LoadLimits limits = {})
      : files_(files), catalog_(std::shared_ptr<const Catalog>(), &catalog), limits_(limits) {}
  Scenario load(const std::string& path) const;

  /// Loads only a machine: from a machine file ({"kind": "machine", "topology", "models"}) or from
  /// the machine of a scenario file. `resolved` receives the machine's resolved configuration, with what
  /// the loader counts (units, switches, links) under "derived".
  topology::Machine load_machine(const std::string& path, nlohmann::json* resolved = nullptr) const;

 private:
  /// The "policies" section: placement (a name, or from-file with its map) and collective (a name, or
  /// an object with its options), each checked against the catalog.
  /// Returns the section as resolved: placement, and collective as an object with every option.
  nlohmann::json read_policies(core::ParamReader& root, Scenario& s) const;
  /// config.json's content: the files' values in their own keys and nesting (included files inlined,
  /// defaults filled in, units canonical) and, under "derived", what the loader works out from them.
  static nlohmann::json resolved_configuration(const Scenario& s, nlohmann::json machine,
                                               nlohmann::json machine_derived, nlohmann::json workload,
                                               nlohmann::json workload_derived, nlohmann::json policies);
  /// The collective policy's options from its object (or the defaults of a policy given by name).
  static void read_collective_options(core::ParamReader& c, Scenario& s);
  /// The "plugins" list: each file must be loaded into the catalog already (scenario_plugin_files).
  void require_listed_plugins(core::ParamReader& root, Scenario& s) const;

  struct GeneratedWorkload {
    workload::Trace trace;
    std::optional<workload::CollectiveBenchmark> benchmark;
    std::string summary;
    nlohmann::json resolved;  ///< the section as the file says it, its model inlined
    nlohmann::json derived;   ///< what follows from it: the model's file and size, micro-batches
    std::optional<workload::MegatronJob> megatron;
    std::vector<std::string> notes;
    std::optional<hw::SoftwareStackModel> software_stack;
  };
  /// A workload section naming a generator: its model file read (when it names one), its plan read by the
  /// generator's table, the trace generated and the model state (or the collective's buffers) checked
  /// against the first unit's HBM.
  GeneratedWorkload load_generated_workload(core::JsonObject section, const topology::Machine& machine) const;

  const core::FileSource& files_;
  std::shared_ptr<const Catalog> catalog_;  ///< owned only when built here
  LoadLimits limits_;
};

}  // namespace zs::scenario
