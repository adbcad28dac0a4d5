// Replayer's private state: per-rank dependency tracking, collective instances and the activities in
// flight; replayer.cpp defines the common and exact-fidelity parts, collapsed/replayer_collapsed.cpp the
// rest.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "engine/busy_time.hpp"
#include "engine/collapsed/collapsed_costs.hpp"
#include "engine/collapsed/concurrent_charges.hpp"
#include "engine/collective_instance.hpp"
#include "engine/p2p_matcher.hpp"
#include "engine/replayer.hpp"
#include "engine/role_graph.hpp"
#include "engine/simgrid_backend.hpp"

namespace zs::engine {

struct Replayer::State {
  enum class Kind : uint8_t {
    kOp,
    kCollectiveTransfer,
    kP2P,
    kCircuitWait,
    kCollectiveTimer,
    kChargeTimer,     ///< collapsed: the earliest finish among the charges in flight (`transfer`: which
                      ///< arming of the timer)
    kCollectiveReady  ///< collapsed: part `transfer` of collective `instance` starts (its members joined)
  };
  struct Activity {
    Kind kind = Kind::kOp;
    uint64_t rank = 0;       ///< op, p2p: the rank (the sender for p2p)
    uint32_t op = 0;         ///< op, p2p: the op
    uint32_t instance = 0;   ///< collective transfer, timer: the collective instance
    uint32_t transfer = 0;   ///< collective transfer: index in its schedule
    uint64_t peer_rank = 0;  ///< p2p: the receiver
    uint32_t peer_op = 0;    ///< p2p: the receiver's op
    uint32_t held = 0;       ///< circuit wait: index in held_transfers
    uint32_t chained = 0;    ///< op: compute ops after `op` run in the same activity (see start_op)
  };
  /// A transfer waiting for an optical circuit on its route to come up.
  struct HeldTransfer {
    topology::NodeId src, dst;
    core::Bytes bytes;
    Activity activity;  ///< what completes when the transfer does
  };
  using Instance = CollectiveInstance;

  State(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
        const policy::CollectivePolicy& c, std::vector<topology::CircuitReconfiguration> reconfigurations,
        const RankCollapse* collapsed);

  const topology::Machine& machine;
  const workload::Trace& trace;
  const policy::Placement& placement;
  const policy::CollectivePolicy& collective;
  const RankCollapse* collapse;  ///< null in exact fidelity
  SimgridBackend backend;
  std::optional<CollapsedCosts> costs;       ///< collapsed fidelity's communication costs
  std::optional<ConcurrentCharges> sharing;  ///< collapsed: the charges in flight share links
  std::vector<Activity> charge_payload;      ///< collapsed: per charge, what its end completes
  /// Collapsed: a charge's finish time as set at `version`; superseded ones are stale and skipped.
  struct ChargeDue {
    double finish;  ///< s
    ConcurrentCharges::Id id;
    uint32_t version;
    bool operator>(const ChargeDue& o) const {
      return std::tie(finish, id, version) > std::tie(o.finish, o.id, o.version);
    }
  };
  /// Collapsed: the charges' finish times, earliest first. Only the earliest has a SimGrid timer: each
  /// live timer costs SimGrid a scan per completion, and shared charges reschedule often.
  std::priority_queue<ChargeDue, std::vector<ChargeDue>, std::greater<>> charges_due;
  double charge_wake_at = std::numeric_limits<double>::infinity();  ///< the armed timer's time, s
  uint32_t charge_wake_arms = 0;                      ///< timers armed so far; the last one is current
  std::unordered_map<uint64_t, uint32_t> slot_index;  ///< collapsed: rank -> slot
  std::vector<uint64_t> rank_of_slot;                 ///< the rank each slot of per-rank state holds
  /// Collapsed, expert dispatch: the largest load of the group of (rank, dispatch op), and per slot
  /// the time the hottest expert of the rank's group ran longer than the rank since its last combine.
  std::unordered_map<uint64_t, double> expert_max_load;
  std::vector<double> expert_lag;
  /// Collapsed, expert dispatch routed per call: every member's load for (rank, dispatch op), and per
  /// slot how much longer each member of the rank's group computed than the rank since its last
  /// combine, s (empty when not known).
  std::unordered_map<uint64_t, std::vector<double>> expert_group_load;
  std::vector<std::vector<double>> member_lag;
  /// Per slot, how many times as long its compute takes: its unit's straggler slowdown; collapsed, the
  /// slowest unit among the ranks the representative stands for (their groups wait for it).
  std::vector<double> slowdown_of_slot;
  topology::CircuitTimeline circuits;
  std::vector<HeldTransfer> held_transfers;
  std::vector<uint32_t> free_held;

  std::vector<RoleGraph> graphs;
  std::vector<uint32_t> role_of_rank;
  std::vector<std::vector<uint32_t>> pending;   ///< per rank, per op: unfinished predecessors
  std::vector<std::vector<double>> op_start;    ///< per rank, per op, s
  std::vector<std::vector<uint32_t>> coll_seq;  ///< per rank, per communicator: collectives issued
  std::vector<std::vector<size_t>> communicator_axes;
  std::map<std::string, size_t> communicator_index;
  std::vector<BusyTime> busy;  ///< per slot
  P2PMatcher p2p;
  std::vector<double> finish;
  std::vector<uint64_t> ops_done;

  std::vector<Activity> activities;
  std::vector<SimgridBackend::Token> free_tokens;
  std::unordered_map<uint32_t, Instance> instances;  ///< node-based: references survive inserts
  std::map<std::tuple<size_t, uint64_t, uint32_t>, uint32_t> instance_by_key;
  uint32_t next_instance = 0;
  std::set<std::string> algorithms;
  /// Expert load of (rank, dispatch op): tokens the rank received / nominal, for ops scaled by it.
  std::unordered_map<uint64_t, double> expert_load;
  ReplayResult result;

  uint64_t load_key(uint64_t rank, uint32_t op) const { return rank * 0x100000000ull + op; }

  double now() const { return backend.now().value(); }
  /// Index of a simulated rank in the per-rank state: the rank itself in exact fidelity.
  size_t slot(uint64_t rank) const { return collapse == nullptr ? rank : slot_index.at(rank); }
  const workload::RoleProgram& program(uint64_t rank) const { return trace.roles[role_of_rank[slot(rank)]]; }

  SimgridBackend::Token new_token(const Activity& a);

  void start_op(uint64_t rank, uint32_t op);

  /// Adds a transfer's bytes to each link of its route, in the direction it crosses it.
  void count_link_bytes(topology::NodeId src, const std::vector<topology::LinkId>& route, double bytes);

  /// Starts a network transfer over the route the fabric offers now, or holds it until the optical
  /// circuits on that route are up.
  void start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes, const Activity& a);

  void op_done(uint64_t rank, uint32_t op) { op_done_at(rank, op, now(), kNoOp); }

  static constexpr uint32_t kNoOp = UINT32_MAX;

  /// `op` finished at `end` (now, or earlier for the first ops of a chained activity); its successors
  /// become ready, except `running` (the next op of the chain, already under way).
  void op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running);

  void post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p);

  /// Index of a communicator in `communicator_axes`, resolved once per name.
  size_t communicator_of(const std::string& name);

  void join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c);

  /// A collective instance for the group of `rank`, which joins it with op `op`.
  uint32_t create_instance(const std::tuple<size_t, uint64_t, uint32_t>& key, uint64_t rank, uint32_t op,
                           const std::vector<size_t>& axes, const workload::CollectiveOp& c);

  /// Registers collective instance `inst` under `key`; returns its id.
  uint32_t add_instance(Instance inst, const std::tuple<size_t, uint64_t, uint32_t>& key);
  /// The collective policy's schedule of `inst` (members set) for `rank`'s op `op`, with the bookkeeping
  /// that starts each transfer once its members joined and its predecessors finished.
  void schedule_transfers(Instance& inst, uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                          const workload::CollectiveOp& c);

  void try_start(uint32_t id, uint32_t t);

  /// The node of a schedule endpoint: a member's unit, or the reducing switch next to it.
  topology::NodeId endpoint_node(const Instance& inst, uint32_t end) const;

  void transfer_done(uint32_t id, uint32_t t);

  void member_done(uint32_t id, uint32_t m);

  /// SimGrid finished the activity of `token`.
  void on_complete(SimgridBackend::Token token);
  /// What the end of activity `a` completes.
  void complete(const Activity& a);

  // Collapsed fidelity (collapsed/replayer_collapsed.cpp).

  /// Collapsed: `rank` starts a compute op scaled by the expert load of its dispatch `dispatch`. The
  /// hottest expert of the group, run by a rank this representative stands for, finishes later, and so
  /// (routed per call) does every member with more load; adds those differences to the rank's lags, s.
  void add_expert_lag(uint64_t rank, uint32_t dispatch, const workload::ComputeOp& c);
  /// Collapsed: representative `rank` joins collective `id` with op `op`; an expert combine is ready
  /// when its hottest member is (the lags); the last representative to join starts its charge.
  void join_collapsed(uint32_t id, uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                      const workload::CollectiveOp& c);

  /// Collapsed: an instance for the representatives in the group of `rank`, costed analytically. Each
  /// representative of an expert dispatch runs its own expert's load; the group's largest is kept so
  /// that the combine can wait for the hottest expert.
  uint32_t create_collapsed_instance(Instance inst, const std::tuple<size_t, uint64_t, uint32_t>& key,
                                     uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                                     const workload::CollectiveOp& c);

  /// Collapsed: starts a communication's charge, which completes `payload` when it ends; it shares
  /// the link directions it loads with the charges in flight (ConcurrentCharges).
  void start_charge(const CollapsedCosts::Charge& charge, const Activity& payload);

  /// Queues the new finish times of the charges whose finish moved (the older ones go stale) and arms
  /// the timer for the earliest.
  void set_charge_timers();
  /// Queues the finish times ConcurrentCharges::changed() lists.
  void queue_changed_charges();
  /// Whether `due` is superseded: its charge ended, or its finish moved since.
  bool stale(const ChargeDue& due) const;
  /// Arms a SimGrid timer for the earliest current finish in charges_due, unless one is armed earlier.
  void arm_charge_wake();
  /// The charge timer armed as number `arm` fired: ends every charge due, in (finish, id) order, and
  /// completes what each ends; then arms the timer for the next finish.
  void charge_wake(uint32_t arm);

  /// Collapsed: every representative of collective `id` joined (the last one, `rank`, with `op`). Its
  /// cost is charged in parts that start when their members join: one part in general; for an expert
  /// combine whose hottest experts' members join after the others, the transfers among the early
  /// members from the latest early join (possibly before now: the part already done is not charged
  /// again), and those of the late members from their join. The collective completes with its last part.
  void start_collective_parts(uint32_t id, uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                              const workload::CollectiveOp& c);

  /// Collapsed: starts part `k` of collective `id`, less what it did alone before now.
  void start_collective_part(uint32_t id, uint32_t k);

  /// Collapsed: a part of collective `id` ended; after the last, every representative finishes its op.
  void collective_timer_done(uint32_t id);
};

}  // namespace zs::engine
