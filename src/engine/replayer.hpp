// Replays a trace on a machine through placement and collective policies, in exact or collapsed fidelity.
#pragma once

#include "core/progress.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "engine/replay_result.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"
#include "topology/optical_circuits.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// One replay core (ReplayCore: the dependency graph, op issue, completion) with one of two fidelities.
/// Exact (ExactFidelity): every rank, op and transfer becomes a SimGrid activity; SimGrid only sees
/// activities whose dependencies are done. Collapsed (CollapsedFidelity, given a RankCollapse): only
/// the representatives run; their compute is simulated as in exact fidelity, while their collectives,
/// point-to-point transfers and memory moves become charges whose length the AnalyticNetwork gives for
/// the transfer and its concurrent copies.
class Replayer {
 public:
  /// `reconfigurations`: scripted optical circuit changes, sorted by time. `record_timeline`: fill
  /// ReplayResult::timeline. `progress`: told how far the replay got.
  Replayer(const topology::Machine& machine, const workload::Trace& trace, const policy::Placement& placement,
           const policy::CollectivePolicy& collective,
           std::vector<topology::CircuitReconfiguration> reconfigurations = {},
           const RankCollapse* collapse = nullptr, bool record_timeline = false,
           core::ProgressSink* progress = nullptr);
  ~Replayer();
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;

  /// Runs the iteration once. Throws core::InputError when the trace does not fit the machine.
  ReplayResult run();

 private:
  const topology::Machine& machine_;
  const workload::Trace& trace_;
  const policy::Placement& placement_;
  const policy::CollectivePolicy& collective_;
  std::vector<topology::CircuitReconfiguration> reconfigurations_;
  const RankCollapse* collapse_;
  bool record_timeline_;  ///< fill ReplayResult::timeline
  core::ProgressSink* progress_;
};

}  // namespace zs::engine
