// A loaded, validated what-if scenario: the machine, the job's trace, the policy names and the resolved
// config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/fidelity.hpp"
#include "hw/software_stack_model.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/reliability_setup.hpp"
#include "search/search_space.hpp"
#include "topology/machine.hpp"
#include "topology/machine_cost.hpp"
#include "topology/optical_circuits.hpp"
#include "topology/unit_speed_variation.hpp"
#include "workload/collective_benchmark.hpp"
#include "workload/megatron_arguments.hpp"
#include "workload/trace.hpp"

namespace zs::scenario {

struct Scenario {
  std::string name;
  std::string description;
  std::string file;  ///< where it was read from
  uint64_t seed = 0;
  /// "auto" (exact within engine::kExactRankOpLimit rank-ops and engine::kExactScanLimit activity scans,
  /// collapsed beyond), "exact" or "collapsed".
  core::Fidelity fidelity = core::Fidelity::kAuto;
  topology::Machine machine;
  /// Unit-to-unit compute speed variation, already drawn onto machine.unit_slowdown; cv 0: none.
  topology::UnitSpeedVariation unit_speed_variation;
  bool unit_speed_variation_given = false;  ///< whether the file has the section (config.json shows it)
  /// Scripted optical circuit changes, sorted by time.
  std::vector<topology::CircuitReconfiguration> circuit_reconfigurations;
  workload::Trace trace;
  std::string workload_summary;  ///< one line for reports, e.g. "gpt3-1.3b, data parallel 8, ..."
  /// Lines for reports about the workload section: its Megatron-LM arguments ignored or set over.
  std::vector<std::string> workload_notes;
  /// The workload's software stack (its fixed host-side costs), when it names one.
  std::optional<hw::SoftwareStackModel> software_stack;
  /// A megatron workload's model and plan (what zettasim plan writes Megatron-LM's arguments from).
  std::optional<workload::MegatronJob> megatron;
  /// The collective benchmark the trace times (generator "collective"); absent for training jobs.
  std::optional<workload::CollectiveBenchmark> collective_benchmark;
  /// The plugins the scenario lists (its "plugins"), as loaded.
  std::vector<policy::LoadedPlugin> plugins;
  std::string placement_policy;
  std::optional<policy::PlacementMap> placement_map;  ///< for "from-file"
  std::string collective_policy;
  policy::CollectiveOptions collective_options;  ///< chunking of the pipelined algorithms
  /// The facility's overhead, electricity, and capital or rent (the file's "cost"); absent: not given,
  /// and only the machine's energy is reported.
  std::optional<topology::CostSetting> cost;
  /// What `zettasim search` may vary (the file's "search" section); absent: not given, the defaults apply.
  std::optional<search::SearchSpace> search;
  /// Failures, checkpointing and recovery over a long horizon (`zettasim goodput`); absent: not given.
  std::optional<ReliabilitySetup> reliability;
  /// Every parameter as resolved, in the files' own keys and nesting (included files inlined, units
  /// canonical, defaults filled in) with what the loader derives under "derived", so that any result can
  /// be reproduced from it and any value outside "derived" can be set by its pointer; config.json.
  nlohmann::json resolved;
};

}  // namespace zs::scenario
