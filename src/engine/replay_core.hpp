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
/// representative's index in collapsed. Its state is its own; a fidelity reaches it through the narrow
/// interface below (the job's inputs, the clock and backend, activity tokens, collective instances, the
/// expert loads it measures, the result's counters, and the ends of ops).
class ReplayCore {
 public:
  using Activity = ReplayActivity;
  using Kind = ReplayActivity::Kind;
  using Instance = CollectiveInstance;
  static constexpr uint32_t kNoOp = UINT32_MAX;

  ReplayCore(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
             const policy::CollectivePolicy& c, SimulatedRanks simulated);

  /// Runs the iteration with `fidelity` (built on this core) until no activity is left.
  ReplayResult run(ReplayFidelity& fidelity);

  // ---- for the fidelities ----

  const topology::Machine& machine() const { return machine_; }
  const workload::Trace& trace() const { return trace_; }
  const policy::Placement& placement() const { return placement_; }
  const policy::CollectivePolicy& collective() const { return collective_; }
  /// How many ranks are simulated (the slots of per-rank state).
  size_t slots() const { return rank_of_slot_.size(); }
  SimgridBackend& backend() { return backend_; }
  const SimgridBackend& backend() const { return backend_; }
  double now() const { return backend_.now().value(); }
  /// Index of a simulated rank in the per-rank state: the rank itself in exact fidelity.
  size_t slot(uint64_t rank) const { return slot_index_.empty() ? rank : slot_index_.at(rank); }
  /// The JSON pointer of `rank`'s op `op` in the trace, for error messages.
  std::string op_where(uint64_t rank, uint32_t op) const;

  /// A token for SimGrid whose completion completes `a`.
  SimgridBackend::Token new_token(const Activity& a);
  /// What the end of activity `a` completes (a fidelity's own activities go back to it).
  void complete(const Activity& a);
  /// `rank`'s op `op` ended now.
  void op_done(uint64_t rank, uint32_t op) { op_done_at(rank, op, now(), kNoOp); }
  /// `rank`'s collective op `op` ended now, the collective's last member having joined at `joined` (s):
  /// the member's time before that counts as waiting.
  void collective_op_done(uint64_t rank, uint32_t op, double joined);

  /// Registers collective instance `inst` under `key`; returns its id.
  uint32_t add_instance(Instance inst, const InstanceKey& key);
  Instance& instance(uint32_t id) { return instances_.at(id); }
  /// Removes instance `id`, returning it.
  Instance take_instance(uint32_t id);
  /// The collective policy's schedule of `inst` (members set) for `rank`'s op `op`, with the bookkeeping
  /// that starts each transfer once its members joined and its predecessors finished, and, with the
  /// machine's step latency on, each schedule step's (CollectiveInstance::step_latency) and the policy's
  /// base latency (CollectiveInstance::base_latency).
  void schedule_transfers(Instance& inst, uint64_t rank, uint32_t op,
                          const workload::CommunicatorGroups& groups, const workload::CollectiveOp& c);
  /// Records that a collective ran with algorithm `name` (the result lists them).
  void note_algorithm(const std::string& name) { algorithms_.insert(name); }

  /// One key per (rank, op), for maps of per-op values.
  static uint64_t load_key(uint64_t rank, uint32_t op) { return rank * 0x100000000ull + op; }
  /// The expert load of `rank`'s dispatch op `op` (tokens received / nominal), once measured.
  double expert_load(uint64_t rank, uint32_t op) const { return expert_load_.at(load_key(rank, op)); }
  void set_expert_load(uint64_t rank, uint32_t op, double load) { expert_load_[load_key(rank, op)] = load; }

  /// Bytes carried per link direction (2 x link + 0 forward, + 1 backward), the result's.
  std::vector<double>& link_bytes() { return result_.link_bytes; }
  void count_circuit_wait() { ++result_.circuit_waits; }
  void count_transfer_level_collective() { ++result_.transfer_level_collectives; }
  /// Whether a timeline is recorded (SimulatedRanks::record_timeline).
  bool records_timeline() const { return timeline_ != nullptr; }
  /// Timeline: a network transfer of `bytes` over `route` from `src` starts now as activity `token`.
  void record_link_transfer(SimgridBackend::Token token, topology::NodeId src,
                            const std::vector<topology::LinkId>& route, double bytes);

 private:
  const workload::RoleProgram& program(uint64_t rank) const {
    return trace_.roles[role_of_rank_[slot(rank)]];
  }

  void start_op(uint64_t rank, uint32_t op);
  /// `op` finished at `end` (now, or earlier for the first ops of a chained activity); its successors
  /// become ready, except `running` (the next op of the chain, already under way).
  void op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running);
  void post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p);
  /// Index of a communicator in `communicator_groups_`, resolved once per name.
  size_t communicator_of(const std::string& name);
  void join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c);
  /// The mean route step latency of the transfers of each step of `schedule` (members on `units`) that
  /// move bytes and are not pipelined, s.
  std::vector<double> step_latencies(const policy::CollectiveSchedule& schedule,
                                     const std::vector<topology::NodeId>& units);
  void try_start(uint32_t id, uint32_t t);
  void transfer_done(uint32_t id, uint32_t t);
  void member_done(uint32_t id, uint32_t m);
  /// SimGrid finished the activity of `token`.
  void on_complete(SimgridBackend::Token token);
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

  // The job.
  const topology::Machine& machine_;
  const workload::Trace& trace_;
  const policy::Placement& placement_;
  const policy::CollectivePolicy& collective_;
  SimulatedRanks simulated_;
  SimgridBackend backend_;
  ReplayFidelity* fidelity_ = nullptr;

  // The simulated ranks: slots, their roles and speeds.
  std::unordered_map<uint64_t, uint32_t> slot_index_;  ///< collapsed: rank -> slot (empty in exact)
  std::vector<uint64_t> rank_of_slot_;                 ///< the rank each slot of per-rank state holds
  std::vector<uint32_t> role_of_rank_;                 ///< per slot
  /// Per slot, how many times as long its compute takes: its unit's straggler slowdown; collapsed, the
  /// slowest unit among the ranks the representative stands for (their groups wait for it).
  std::vector<double> slowdown_of_slot_;

  // Op issue and completion.
  std::vector<RoleGraph> graphs_;
  std::vector<std::vector<uint32_t>> pending_;  ///< per slot, per op: unfinished predecessors
  std::vector<std::vector<double>> op_start_;   ///< per slot, per op, s
  std::vector<double> finish_;                  ///< per slot, s
  std::vector<uint64_t> ops_done_;              ///< per slot
  uint64_t ops_done_total_ = 0;                 ///< over every slot
  uint64_t ops_total_ = 0;                      ///< the simulated ranks' ops
  uint64_t completions_ = 0;                    ///< activities completed (progress is reported every 4096)
  std::vector<BusyTime> busy_;                  ///< per slot

  // Communication: communicators, collective instances, point-to-point matching.
  /// Per slot, the collectives and point-to-point ops joined or posted and not finished: their kernels
  /// run on the unit beside its compute (SimgridBackend::set_communicating).
  std::vector<uint32_t> communicating_;
  std::vector<std::vector<uint32_t>> coll_seq_;  ///< per slot, per communicator: collectives issued
  std::vector<workload::CommunicatorGroups> communicator_groups_;
  std::map<std::string, size_t> communicator_index_;
  std::unordered_map<uint32_t, Instance> instances_;  ///< node-based: references survive inserts
  std::map<InstanceKey, uint32_t> instance_by_key_;
  uint32_t next_instance_ = 0;
  /// Set just before a member's collective op ends (collective_op_done): when the collective's last
  /// member joined, s; op_done_at counts the member's time before it as waiting, then resets it to -1.
  double done_collective_joined_ = -1;
  P2PMatcher p2p_;
  workload::DispatchDraws dispatch_draws_;  ///< expert dispatches' routing, each draw routed once
  /// Expert load of (rank, dispatch op): tokens the rank received / nominal, for ops scaled by it.
  std::unordered_map<uint64_t, double> expert_load_;

  // SimGrid activities in flight.
  std::vector<Activity> activities_;
  std::vector<SimgridBackend::Token> free_tokens_;

  // What the replay reports.
  std::set<std::string> algorithms_;
  ReplayResult result_;
  /// Recording for a timeline (simulated_.record_timeline), else null.
  std::shared_ptr<ReplayTimeline> timeline_;
  std::unordered_map<uint64_t, uint32_t> collective_of_op_;    ///< timeline: load_key(rank, op) -> instance
  std::unordered_map<uint64_t, uint32_t> open_link_transfer_;  ///< timeline: token -> link_transfers index
};

}  // namespace zs::engine
