// Replays a trace on a machine through placement and collective policies, in exact fidelity.
#pragma once

#include "engine/replay_result.hpp"
#include "policy/collective_policy.hpp"
#include "policy/placement_policy.hpp"
#include "topology/machine.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// Exact fidelity: every rank, op and transfer becomes a SimGrid activity. The dependency graph
/// stays in our structures; SimGrid only sees activities whose dependencies are done.
class Replayer {
 public:
  Replayer(const topology::Machine& machine, const workload::Trace& trace, const policy::Placement& placement,
           const policy::CollectivePolicy& collective);
  ~Replayer();
  Replayer(const Replayer&) = delete;
  Replayer& operator=(const Replayer&) = delete;

  /// Runs the iteration once. Throws core::InputError when the trace does not fit the machine.
  ReplayResult run();

 private:
  struct State;
  const topology::Machine& machine_;
  const workload::Trace& trace_;
  const policy::Placement& placement_;
  const policy::CollectivePolicy& collective_;
};

}  // namespace zs::engine
