// Exact fidelity: every simulated rank is a rank of the job and every byte a SimGrid flow.
#pragma once

#include <vector>

#include "engine/replay_core.hpp"
#include "engine/replay_fidelity.hpp"
#include "topology/optical_circuits.hpp"

namespace zs::engine {

/// Memory moves, point-to-point transfers and the transfers of collective schedules become SimGrid
/// flows over the route the fabric offers when they start; a transfer whose route crosses an optical
/// circuit that is still being set up waits for it.
class ExactFidelity final : public ReplayFidelity {
 public:
  /// `reconfigurations`: scripted optical circuit changes, sorted by time.
  ExactFidelity(ReplayCore& core, std::vector<topology::CircuitReconfiguration> reconfigurations);

  void start_memory_move(uint64_t rank, core::Bytes bytes, bool read, const ReplayActivity& done) override;
  void start_p2p(uint64_t src, uint64_t dst, core::Bytes bytes, const ReplayActivity& done) override;
  void start_collective_transfer(const CollectiveInstance& inst, uint32_t t,
                                 const ReplayActivity& done) override;
  uint32_t create_instance(const InstanceKey& key, uint64_t rank, uint32_t op,
                           const workload::CommunicatorGroups& groups,
                           const workload::CollectiveOp& c) override;
  void join_analytic(uint32_t id, uint64_t rank, uint32_t op, const workload::CommunicatorGroups& groups,
                     const workload::CollectiveOp& c) override;
  void scaled_compute_started(uint64_t, uint32_t, const workload::ComputeOp&) override {}
  void complete(const ReplayActivity& a) override;
  void finish(ReplayResult&) const override {}

 private:
  /// A transfer waiting for an optical circuit on its route to come up, or for its collective's base
  /// latency to pass.
  struct HeldTransfer {
    topology::NodeId src, dst;
    core::Bytes bytes;
    ReplayActivity activity;  ///< what completes when the transfer does
    double step_latency;      ///< the least latency it pays, s (negative: its route's)
  };

  /// Starts a network transfer over the route the fabric offers now, or holds it until the optical
  /// circuits on that route are up; a step latency above the route's latency holds it for the excess
  /// first, so that SimGrid shares the links by the route's latency alone.
  void start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes, const ReplayActivity& a,
                      double step_latency = -1);
  /// Starts `transfer` (start_transfer) after `delay` (s) of simulated time.
  void hold(const HeldTransfer& transfer, double delay);
  /// Adds a transfer's bytes to each link of its route, in the direction it crosses it.
  void count_link_bytes(topology::NodeId src, const std::vector<topology::LinkId>& route, double bytes);
  /// The node of a schedule endpoint: a member's unit, or the reducing switch next to it.
  topology::NodeId endpoint_node(const CollectiveInstance& inst, uint32_t end) const;

  ReplayCore& core_;
  topology::CircuitTimeline circuits_;
  std::vector<HeldTransfer> held_transfers_;
  std::vector<uint32_t> free_held_;
};

}  // namespace zs::engine
