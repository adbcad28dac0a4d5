// Runs one job (trace + machine + policies) and derives the headline figures (MFU, tokens/s).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/fidelity.hpp"
#include "core/progress.hpp"
#include "core/units.hpp"
#include "engine/exact_work.hpp"
#include "engine/replay_result.hpp"
#include "engine/utilization.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"
#include "topology/machine_power.hpp"
#include "topology/optical_circuits.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

struct SimulationResult {
  ReplayResult replay;  ///< its `fidelity` says which mode ran
  /// Collapsed fidelity was asked for, but expert routing drawn per call left no two ranks alike and
  /// the trace is within kExactRankOpLimit, so exact fidelity ran instead (replay.fidelity kExact).
  bool collapsed_ran_exact = false;
  /// Fidelity "auto": why the fidelity that ran was chosen (auto_fidelity_reason); empty otherwise.
  std::string fidelity_reason;
  std::string placement_policy;
  std::string placement_layout;  ///< what the placement policy chose and why; empty when it says nothing
  std::string collective_policy;
  core::FlopRate peak;      ///< sum of the placed units' dense peaks in the model's dtype, FLOP/s
  core::Flops model_flops;  ///< per iteration, whole job
  double mfu = 0;           ///< model FLOPs / (iteration time x peak)
  /// Matrix FLOPs the trace's compute ops execute per iteration, whole job: the model's, recomputation's
  /// and any other matrix work (PaLM's hardware FLOPs).
  core::Flops hardware_flops;
  double hfu = 0;                ///< hardware FLOPs / (iteration time x peak)
  double tokens_per_second = 0;  ///< tokens per iteration / iteration time
  /// What the machine's parts draw (every unit, placed or not, and every link end, pool and optical
  /// switch).
  topology::MachinePower power;
  /// The whole machine's energy over the iteration: every part's power x iteration time, plus each placed
  /// unit's (load - idle) x its compute time; facility overhead not included.
  topology::MachineEnergy energy;
  core::Watts average_power;  ///< energy.total() / iteration time, W
  Utilization utilization;
};

/// What may change during the run besides the trace's own work, and the seed of randomized policies.
struct SimulationEvents {
  std::vector<topology::CircuitReconfiguration> circuit_reconfigurations;  ///< sorted by time
  uint64_t seed = 1;                                                       ///< the scenario's seed
  /// Record every op's span, point-to-point pairs and link transfers (ReplayResult::timeline).
  bool record_timeline = false;
  /// Told, every few thousand completed activities, the simulated time and the ops done of the total.
  core::ProgressSink* progress = nullptr;
};

/// Which ranks and flows are simulated (kAuto: exact within kExactRankOpLimit rank-ops and
/// kExactScanLimit activity scans, collapsed beyond).
using core::Fidelity;
using core::parse_fidelity;
using core::to_string;

/// Replays the trace once with its ranks where `placement` puts them; `placement_policy` names what chose
/// it (the result's placement_policy). Throws core::InputError when the trace does not fit the machine,
/// or when exact fidelity is asked for a trace larger than kExactRankOpLimit.
SimulationResult simulate(const topology::Machine& machine, const workload::Trace& trace,
                          const policy::Placement& placement, std::string_view placement_policy,
                          const policy::CollectivePolicy& collective, const SimulationEvents& events = {},
                          Fidelity fidelity = Fidelity::kAuto);

/// Places the mesh with the placement policy (seeded by events.seed), then simulates as above.
SimulationResult simulate(const topology::Machine& machine, const workload::Trace& trace,
                          const policy::PlacementPolicy& placement,
                          const policy::CollectivePolicy& collective, const SimulationEvents& events = {},
                          Fidelity fidelity = Fidelity::kAuto);

}  // namespace zs::engine
