// The replay core both fidelities share: per-rank dependency tracking, op issue and completion,
// collective instances, point-to-point matching and the SimGrid activities in flight.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/progress.hpp"
#include "engine/busy_time.hpp"
#include "engine/collective_instance.hpp"
#include "engine/p2p_matcher.hpp"
#include "engine/replay_activity.hpp"
#include "engine/replay_fidelity.hpp"
#include "engine/replay_result.hpp"
#include "engine/role_graph.hpp"
#include "engine/simgrid_backend.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"
#include "workload/dispatch_draws.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// The ranks a replay simulates: every rank of the mesh (exact fidelity), or representatives that each
/// stand for several (collapsed).
struct SimulatedRanks {
  std::vector<uint64_t> representatives;   ///< ascending; empty: every rank
  uint64_t stands_for = 1;                 ///< ranks each simulated rank stands for, itself included
  std::map<uint64_t, double> slowdown;     ///< per simulated rank on a slow unit: compute time factor
  bool record_timeline = false;            ///< fill ReplayResult::timeline
  core::ProgressSink* progress = nullptr;  ///< told how far the replay got
};

/// Issues every simulated rank's ops as their dependencies finish: compute on SimGrid, communication
/// through the fidelity. Per-rank state is indexed by slot: the rank itself in exact fidelity, the
/// representative's index in collapsed.
struct ReplayCore {
  using Activity = ReplayActivity;
  using Kind = ReplayActivity::Kind;
  using Instance = CollectiveInstance;

  ReplayCore(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
             const policy::CollectivePolicy& c, SimulatedRanks simulated);

  /// Runs the iteration with `fidelity` (built on this core) until no activity is left.
  ReplayResult run(ReplayFidelity& fidelity);

  const topology::Machine& machine;
  const workload::Trace& trace;
  const policy::Placement& placement;
  const policy::CollectivePolicy& collective;
  SimulatedRanks simulated;
  SimgridBackend backend;
  ReplayFidelity* fidelity = nullptr;

  std::unordered_map<uint64_t, uint32_t> slot_index;  ///< collapsed: rank -> slot (empty in exact)
  std::vector<uint64_t> rank_of_slot;                 ///< the rank each slot of per-rank state holds
  /// Per slot, how many times as long its compute takes: its unit's straggler slowdown; collapsed, the
  /// slowest unit among the ranks the representative stands for (their groups wait for it).
  std::vector<double> slowdown_of_slot;
  /// Per slot, the collectives and point-to-point ops joined or posted and not finished: their kernels
  /// run on the unit beside its compute (SimgridBackend::set_communicating).
  std::vector<uint32_t> communicating;
  std::vector<RoleGraph> graphs;
  std::vector<uint32_t> role_of_rank;           ///< per slot
  std::vector<std::vector<uint32_t>> pending;   ///< per slot, per op: unfinished predecessors
  std::vector<std::vector<double>> op_start;    ///< per slot, per op, s
  std::vector<std::vector<uint32_t>> coll_seq;  ///< per slot, per communicator: collectives issued
  std::vector<workload::CommunicatorGroups> communicator_groups;
  std::map<std::string, size_t> communicator_index;
  std::vector<BusyTime> busy;  ///< per slot
  P2PMatcher p2p;
  std::vector<double> finish;      ///< per slot, s
  std::vector<uint64_t> ops_done;  ///< per slot
  uint64_t ops_done_total = 0;     ///< over every slot
  uint64_t ops_total = 0;          ///< the simulated ranks' ops
  uint64_t completions = 0;        ///< activities completed (progress is reported every 4096)

  std::vector<Activity> activities;
  std::vector<SimgridBackend::Token> free_tokens;
  std::unordered_map<uint32_t, Instance> instances;  ///< node-based: references survive inserts
  /// Set by a fidelity just before it ends a member's collective op (op_done): when the collective's last
  /// member joined, s; op_done_at counts the member's time before it as waiting, then resets it to -1.
  double done_collective_joined = -1;
  std::map<InstanceKey, uint32_t> instance_by_key;
  uint32_t next_instance = 0;
  std::set<std::string> algorithms;
  workload::DispatchDraws dispatch_draws;  ///< expert dispatches' routing, each draw routed once
  /// Expert load of (rank, dispatch op): tokens the rank received / nominal, for ops scaled by it.
  std::unordered_map<uint64_t, double> expert_load;
  ReplayResult result;
  /// Recording for a timeline (simulated.record_timeline), else null.
  std::shared_ptr<ReplayTimeline> timeline;
  std::unordered_map<uint64_t, uint32_t> collective_of_op;    ///< timeline: load_key(rank, op) -> instance
  std::unordered_map<uint64_t, uint32_t> open_link_transfer;  ///< timeline: token -> link_transfers index

  /// Timeline: a network transfer of `bytes` over `route` from `src` starts now as activity `token`.
  void record_link_transfer(SimgridBackend::Token token, topology::NodeId src,
                            const std::vector<topology::LinkId>& route, double bytes);

  static uint64_t load_key(uint64_t rank, uint32_t op) { return rank * 0x100000000ull + op; }

  double now() const { return backend.now().value(); }
  /// Index of a simulated rank in the per-rank state: the rank itself in exact fidelity.
  size_t slot(uint64_t rank) const { return slot_index.empty() ? rank : slot_index.at(rank); }
  const workload::RoleProgram& program(uint64_t rank) const { return trace.roles[role_of_rank[slot(rank)]]; }
  /// The JSON pointer of `rank`'s op `op` in the trace, for error messages.
  std::string op_where(uint64_t rank, uint32_t op) const;

  SimgridBackend::Token new_token(const Activity& a);

  void start_op(uint64_t rank, uint32_t op);

  void op_done(uint64_t rank, uint32_t op) { op_done_at(rank, op, now(), kNoOp); }

  static constexpr uint32_t kNoOp = UINT32_MAX;

  /// `op` finished at `end` (now, or earlier for the first ops of a chained activity); its successors
  /// become ready, except `running` (the next op of the chain, already under way).
  void op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running);

  void post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p);

  /// Index of a communicator in `communicator_groups`, resolved once per name.
  size_t communicator_of(const std::string& name);

  void join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c);

  /// Registers collective instance `inst` under `key`; returns its id.
  uint32_t add_instance(Instance inst, const InstanceKey& key);
  /// The collective policy's schedule of `inst` (members set) for `rank`'s op `op`, with the bookkeeping
  /// that starts each transfer once its members joined and its predecessors finished, and, with the
  /// machine's step latency on, each schedule step's (CollectiveInstance::step_latency) and the policy's
  /// base latency (CollectiveInstance::base_latency).
  void schedule_transfers(Instance& inst, uint64_t rank, uint32_t op,
                          const workload::CommunicatorGroups& groups, const workload::CollectiveOp& c);

  /// The mean route step latency of the transfers of each step of `schedule` (members on `units`) that
  /// move bytes and are not pipelined, s.
  std::vector<double> step_latencies(const policy::CollectiveSchedule& schedule,
                                     const std::vector<topology::NodeId>& units);

  void try_start(uint32_t id, uint32_t t);

  void transfer_done(uint32_t id, uint32_t t);

  void member_done(uint32_t id, uint32_t m);

  /// SimGrid finished the activity of `token`.
  void on_complete(SimgridBackend::Token token);
  /// What the end of activity `a` completes.
  void complete(const Activity& a);

 private:
  /// Counts a communication op of `rank` starting (+1) or finishing (-1), telling the backend when the
  /// unit starts and stops communicating.
  void count_communication(uint64_t rank, int change);
  /// The per-op jitter factor of `op` on `rank` (1 without jitter); collapsed, the slowest of the ranks
  /// the representative stands for.
  double jitter(uint64_t rank, uint32_t op) const;
  void start_compute(uint64_t rank, uint32_t op, const workload::ComputeOp& c);
  void start_initial_ops();
  void check_every_op_ran() const;
  ReplayResult take_result();
};

}  // namespace zs::engine
