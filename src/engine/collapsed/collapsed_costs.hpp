// Collapsed fidelity's communication costs: collectives, point-to-point transfers and memory moves of
// representative ranks, costed with their concurrent copies on the analytic network.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/units.hpp"
#include "engine/collapsed/analytic_network.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "policy/collective/collective_policy.hpp"
#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"
#include "workload/dispatch_draws.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// Costs communication of representatives without flows (see AnalyticNetwork). Each cost counts the
/// copies of the same communication that the ranks a representative stands for run at the same time:
/// up to kCopySample copies routed one by one, more sampled evenly and weighted. Costs are cached per
/// (communicator group, kind, bytes) for collectives and per (endpoints, bytes) for transfers.
class CollapsedCosts {
 public:
  /// Copies beyond this many are sampled evenly (and weighted).
  static constexpr uint64_t kCopySample = 31;
  /// A pairwise all-to-all of at most this many members (n (n-1) transfers: 261,632 at 512) is replayed
  /// transfer by transfer with its dependencies on the fluid sharing model (run_chained); a larger one
  /// is costed as its steps in lockstep.
  static constexpr size_t kReplayedPairwiseMembers = 512;

  /// A communication's cost alone, and what it loads for sharing with others in flight
  /// (ConcurrentCharges).
  struct Charge {
    double seconds = 0;  ///< latency + drain of every step, s
    /// B per call per link direction (each once, in increasing order), the copies included: every
    /// direction the communication and its copies cross; where the copies are sampled (and weighted),
    /// only the directions the representative's own transfers cross, whose loads the weighting estimates.
    std::vector<std::pair<uint32_t, double>> shared_bytes;
  };
  /// Routing draws per dispatch shape that the small expert dispatches of a merged trace (representatives
  /// standing for several ranks) take turns with; a per-call draw of a 64-member group (4,096 tokens each,
  /// top-8) costs about 0.15 s.
  static constexpr uint64_t kRoutingPool = 16;
  /// A collective's cost for its group.
  struct CollectiveCharge : Charge {
    std::string algorithm;     ///< what the policy scheduled
    std::vector<double> load;  ///< expert dispatch: tokens each member of the group receives / nominal
  };

  /// `router` must reflect the links up at the start; every argument must outlive this object.
  CollapsedCosts(const topology::Machine& machine, const workload::Trace& trace,
                 const policy::Placement& placement, const policy::CollectivePolicy& collective,
                 const RankCollapse& collapse, topology::Router& router);

  /// A point-to-point transfer of `bytes` from representative `src` to representative `dst`.
  Charge p2p(uint64_t src, uint64_t dst, core::Bytes bytes, std::vector<double>& link_bytes);
  /// A transfer of a collective schedule over `members` (all representatives, in group order; endpoint
  /// n + m is the reducing switch next to member m), with its copies. It pays its route's latency, at
  /// least `step_latency` (s: its schedule step's, CollectiveInstance::step_latency; 0 for a pipelined
  /// chunk or with the machine's step latency off).
  Charge collective_transfer(const std::vector<uint64_t>& members, const policy::Transfer& transfer,
                             double step_latency, std::vector<double>& link_bytes);
  /// A move of `bytes` between representative `rank`'s unit and its memory pool: the slowest of the
  /// ranks it stands for (sampled as copies are), since their groups wait for the slowest.
  Charge memory_move(uint64_t rank, core::Bytes bytes, bool read, std::vector<double>& link_bytes);
  /// The collective `c` of `rank`'s group over `axes` (communicator index `comm`). Adds the bytes it
  /// moves to `link_bytes` (per link direction). Throws core::InputError at `where` when the policy
  /// does not implement the collective.
  CollectiveCharge collective(uint64_t rank, size_t comm, const std::vector<size_t>& axes,
                              const workload::CollectiveOp& c, const std::string& where,
                              std::vector<double>& link_bytes);

  /// An expert combine of `rank`'s group over `axes` (small enough to draw its routing per call) whose
  /// members `late[m]` join after the others: the cost of the transfers among the early members, and of
  /// those to or from a late one, each alone.
  std::pair<Charge, Charge> staggered_combine(uint64_t rank, const std::vector<size_t>& axes,
                                              const workload::CollectiveOp& c, const std::vector<bool>& late,
                                              const std::string& where);
  /// Distinct patterns costed so far (collectives and transfers).
  uint64_t patterns_costed() const { return patterns_costed_; }
  uint64_t routes_computed() const { return network_.routes_computed(); }

 private:
  struct Cost {
    double latency = 0, drain = 0;                          ///< s
    std::vector<std::pair<uint32_t, double>> link_bytes;    ///< per link direction, B per call
    std::vector<std::pair<uint32_t, double>> shared_bytes;  ///< see Charge::shared_bytes
    std::string algorithm;
  };
  /// `bytes` summed per direction, in increasing direction order, without the directions a charge of
  /// `seconds` uses below ConcurrentCharges::kNegligibleUse of their bandwidth.
  std::vector<std::pair<uint32_t, double>> shareable(std::vector<std::pair<uint32_t, double>> bytes,
                                                     double seconds) const;
  /// Copies of a group to cost explicitly (never copy 0, the group itself); returns each one's weight.
  static double sampled_copies(uint64_t count, std::vector<uint64_t>& copies);
  /// `route_latency_only`: the flow pays its route's latency, never a step latency
  /// (AnalyticNetwork::Flow::pipelined); a caller that does so charges any step latency itself.
  template <typename Ends>
  const Cost& copied_flow(uint64_t src, uint64_t dst, core::Bytes bytes, int tag, Ends ends,
                          std::vector<double>& link_bytes, bool slowest_copy,
                          bool route_latency_only = false);
  Cost schedule_cost(uint64_t rank, const std::vector<size_t>& axes, const workload::CollectiveOp& c,
                     const std::vector<std::vector<double>>* peer_bytes, const std::string& where);
  /// A schedule whose steps need not run in lockstep (a pairwise all-to-all: each send-receive step
  /// waits only for its ends' previous step), into `cost`: each transfer costed alone with its copies
  /// (`copy_units`, weighted `weight`), then replayed with its dependencies by run_chained. The links'
  /// bytes are added step by step as for other schedules. The first step's transfers that are not pipelined
  /// start `base` later (the library's base latency, s).
  void replayed_schedule_cost(const policy::CollectiveSchedule& schedule,
                              const policy::CollectiveRequest& request,
                              const std::vector<std::vector<topology::NodeId>>& copy_units, double weight,
                              std::vector<std::pair<uint32_t, double>>* own_bytes, double base, Cost& cost);

  /// The routing of an expert dispatch (or combine) `d` over group `group` of `n` members, small enough
  /// to be routed per call: this call's own draw when every rank is simulated; otherwise one of
  /// kRoutingPool draws of its shape, picked by the call's seed and group (a combine picks its
  /// dispatch's draw), so that a merged trace of thousands of dispatches draws a few routings only.
  workload::DispatchSizes routing_of_call(const workload::ExpertDispatch& d, uint32_t n, uint64_t group);

  const topology::Machine& machine_;
  const workload::Trace& trace_;
  const policy::Placement& placement_;
  const policy::CollectivePolicy& collective_;
  const RankCollapse& collapse_;
  AnalyticNetwork network_;
  workload::DispatchDraws every_rank_draws_;  ///< each call's own draw, routed once per draw
  std::map<std::tuple<size_t, uint64_t, int, double>, Cost> collective_costs_;
  std::map<std::tuple<topology::NodeId, topology::NodeId, double, int>, Cost> flow_costs_;
  /// Large expert dispatches, per shape (members, tokens, experts and top-k, bytes per token): one
  /// routing draw (the dispatch's way), its per-peer bytes and each member's load.
  std::map<std::tuple<uint64_t, uint64_t, int, double>, workload::DispatchSizes> dispatch_draws_;
  /// Small expert dispatches of a merged trace, per shape (as above, with the combine flag) and pool
  /// index: their routing draws.
  std::map<std::tuple<uint64_t, uint64_t, int, double, bool, uint64_t>, workload::DispatchSizes>
      pooled_draws_;
  uint64_t patterns_costed_ = 0;
  /// A step's flows, kept between calls: a large all-to-all's copies make millions of them, and fresh
  /// vectors would fault their pages in again on every pattern.
  std::vector<AnalyticNetwork::Flow> own_flows_, other_flows_;
  std::vector<AnalyticNetwork::StepCost> own_transfer_costs_;  ///< scratch: per own transfer of a step
  std::vector<double> direction_bandwidth_;                    ///< per link direction, B/s
};

}  // namespace zs::engine
