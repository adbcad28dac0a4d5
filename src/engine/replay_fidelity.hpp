// What exact and collapsed fidelity each do their own way: run communication and finish the result.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "core/units.hpp"
#include "engine/collective_instance.hpp"
#include "engine/replay_activity.hpp"
#include "engine/replay_result.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// A collective's identity in a replay: (communicator index, group index, call number in the group).
using InstanceKey = std::tuple<size_t, uint64_t, uint32_t>;

/// The ReplayCore issues ops in dependency order and hands each communication to its fidelity, which
/// starts SimGrid activities or timers whose end completes the given ReplayActivity (through
/// ReplayCore::complete). ExactFidelity (engine/exact/) moves every byte as a SimGrid flow;
/// CollapsedFidelity (engine/collapsed/) simulates representatives and charges analytic costs.
class ReplayFidelity {
 public:
  virtual ~ReplayFidelity() = default;

  /// A memory move of `bytes` between `rank`'s unit and its pool (`read`: pool to unit).
  virtual void start_memory_move(uint64_t rank, core::Bytes bytes, bool read, const ReplayActivity& done) = 0;
  /// A matched point-to-point transfer of `bytes` from rank `src` to rank `dst`.
  virtual void start_p2p(uint64_t src, uint64_t dst, core::Bytes bytes, const ReplayActivity& done) = 0;
  /// Transfer `t` of collective instance `inst`'s schedule, whose endpoints joined and whose
  /// predecessors finished.
  virtual void start_collective_transfer(const CollectiveInstance& inst, uint32_t t,
                                         const ReplayActivity& done) = 0;
  /// The instance for the group of `rank`, the first of its group to issue collective `c` (its op
  /// `op`, on a communicator of `groups`) as call `key`; registers it with ReplayCore::add_instance and
  /// returns its id.
  virtual uint32_t create_instance(const InstanceKey& key, uint64_t rank, uint32_t op,
                                   const workload::CommunicatorGroups& groups,
                                   const workload::CollectiveOp& c) = 0;
  /// `rank` joins instance `id`, which the fidelity costs as a whole (CollectiveInstance::analytic).
  virtual void join_analytic(uint32_t id, uint64_t rank, uint32_t op,
                             const workload::CommunicatorGroups& groups, const workload::CollectiveOp& c) = 0;
  /// `rank` starts compute op `c`, scaled by the expert load its dispatch op `dispatch` received.
  virtual void scaled_compute_started(uint64_t rank, uint32_t dispatch, const workload::ComputeOp& c) = 0;
  /// The end of an activity of one of the fidelity's own kinds (timers, circuit waits).
  virtual void complete(const ReplayActivity& a) = 0;
  /// Fills the result's fields that belong to the fidelity.
  virtual void finish(ReplayResult& out) const = 0;
};

}  // namespace zs::engine
