// Collapsed fidelity: representatives run, and their communication becomes analytic charges.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "engine/collapsed/collapsed_costs.hpp"
#include "engine/collapsed/concurrent_charges.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "engine/replay_core.hpp"
#include "engine/replay_fidelity.hpp"

namespace zs::engine {

/// Only the representatives of a RankCollapse run; their compute is simulated as in exact fidelity,
/// while their collectives, point-to-point transfers and memory moves become charges whose length
/// CollapsedCosts gives for the communication and its concurrent copies, sharing the link directions
/// they load with the charges in flight (ConcurrentCharges). Small collectives whose members are all
/// representatives run their schedule transfer by transfer, each as a charge.
class CollapsedFidelity final : public ReplayFidelity {
 public:
  /// `core` simulates the representatives of `collapse`.
  CollapsedFidelity(ReplayCore& core, const RankCollapse& collapse);

  void start_memory_move(uint64_t rank, core::Bytes bytes, bool read, const ReplayActivity& done) override;
  void start_p2p(uint64_t src, uint64_t dst, core::Bytes bytes, const ReplayActivity& done) override;
  void start_collective_transfer(const CollectiveInstance& inst, uint32_t t,
                                 const ReplayActivity& done) override;
  /// An instance for the representatives in the group of `rank`, costed analytically. Each
  /// representative of an expert dispatch runs its own expert's load; the group's largest is kept so
  /// that the combine can wait for the hottest expert.
  uint32_t create_instance(const InstanceKey& key, uint64_t rank, uint32_t op,
                           const workload::CommunicatorGroups& groups,
                           const workload::CollectiveOp& c) override;
  /// An expert combine is ready when its hottest member is (the lags); the last representative to join
  /// starts its charge.
  void join_analytic(uint32_t id, uint64_t rank, uint32_t op, const workload::CommunicatorGroups& groups,
                     const workload::CollectiveOp& c) override;
  /// The hottest expert of the group, run by a rank this representative stands for, finishes later,
  /// and so (routed per call) does every member with more load; adds those differences to the rank's
  /// lags, s.
  void scaled_compute_started(uint64_t rank, uint32_t dispatch, const workload::ComputeOp& c) override;
  void complete(const ReplayActivity& a) override;
  void finish(ReplayResult& out) const override;

 private:
  /// A charge's finish time as set at `version`; superseded ones are stale and skipped.
  struct ChargeDue {
    double finish;  ///< s
    ConcurrentCharges::Id id;
    uint32_t version;
    bool operator>(const ChargeDue& o) const {
      return std::tie(finish, id, version) > std::tie(o.finish, o.id, o.version);
    }
  };

  /// Starts a communication's charge, which completes `payload` when it ends; it shares the link
  /// directions it loads with the charges in flight.
  void start_charge(const CollapsedCosts::Charge& charge, const ReplayActivity& payload);
  /// Queues the new finish times of the charges whose finish moved (the older ones go stale) and arms
  /// the timer for the earliest.
  void set_charge_timers();
  /// Queues the finish times ConcurrentCharges::changed() lists.
  void queue_changed_charges();
  /// Whether `due` is superseded: its charge ended, or its finish moved since.
  bool stale(const ChargeDue& due) const;
  /// Arms a SimGrid timer for the earliest current finish in charges_due_, unless one is armed earlier.
  void arm_charge_wake();
  /// The charge timer armed as number `arm` fired: ends every charge due, in (finish, id) order, and
  /// completes what each ends; then arms the timer for the next finish.
  void charge_wake(uint32_t arm);

  /// Every representative of collective `id` joined (the last one, `rank`, with `op`). Its cost is
  /// charged in parts that start when their members join: one part in general; for an expert combine
  /// whose hottest experts' members join after the others, the transfers among the early members from
  /// the latest early join (possibly before now: the part already done is not charged again), and
  /// those of the late members from their join. The collective completes with its last part.
  void start_collective_parts(uint32_t id, uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                              const workload::CollectiveOp& c);
  /// Starts part `k` of collective `id`, less what it did alone before now.
  void start_collective_part(uint32_t id, uint32_t k);
  /// A part of collective `id` ended; after the last, every representative finishes its op.
  void collective_timer_done(uint32_t id);

  ReplayCore& core_;
  const RankCollapse& collapse_;
  CollapsedCosts costs_;
  ConcurrentCharges sharing_;                   ///< the charges in flight share links
  std::vector<ReplayActivity> charge_payload_;  ///< per charge, what its end completes
  /// The charges' finish times, earliest first. Only the earliest has a SimGrid timer: each live timer
  /// costs SimGrid a scan per completion, and shared charges reschedule often.
  std::priority_queue<ChargeDue, std::vector<ChargeDue>, std::greater<>> charges_due_;
  double charge_wake_at_ = std::numeric_limits<double>::infinity();  ///< the armed timer's time, s
  uint32_t charge_wake_arms_ = 0;  ///< timers armed so far; the last one is current
  /// Expert dispatch: the largest load of the group of (rank, dispatch op), and per slot the time the
  /// hottest expert of the rank's group ran longer than the rank since its last combine, s.
  std::unordered_map<uint64_t, double> expert_max_load_;
  std::vector<double> expert_lag_;
  /// Expert dispatch routed per call: every member's load for (rank, dispatch op), and per slot how
  /// much longer each member of the rank's group computed than the rank since its last combine, s
  /// (empty when not known).
  std::unordered_map<uint64_t, std::vector<double>> expert_group_load_;
  std::vector<std::vector<double>> member_lag_;
};

}  // namespace zs::engine
