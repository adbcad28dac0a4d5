// Collective policies turn a collective on a placed communicator into a schedule of transfers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "hw/collective_protocol.hpp"
#include "topology/machine.hpp"
#include "workload/trace.hpp"

namespace zs::policy {

class RouteMeasurements;

/// A point-to-point transfer between two endpoints of the communicator. Endpoints 0 to n-1 are the
/// members (indices into the member list); endpoint n + m is the in-network reduction switch next to
/// member m, seen from m's port (in-network algorithms send to it and receive from it). A transfer may
/// start once every transfer in `after` is done and the members among its ends have joined the
/// collective.
struct Transfer {
  uint32_t src = 0;
  uint32_t dst = 0;
  core::Bytes bytes;
  uint32_t step = 0;            ///< algorithm step, for reports and for collapsing repeated steps
  std::vector<uint32_t> after;  ///< indices of earlier transfers of the same schedule
  /// A chunk behind the first of a pipelined schedule: it moves while the pipeline is already full, so
  /// it pays its route's physical latency but no collective library step latency (NCCL counts that once
  /// per algorithm step, for the pipeline's fill, however many chunks follow).
  bool pipelined = false;
  /// How the collective library moves it: its links' step latency under this protocol, its bytes
  /// already grown to what the protocol puts on the wire (ProtocolChoice).
  hw::CollectiveProtocol protocol = hw::CollectiveProtocol::kSimple;
  /// Whose per-step latency it pays: the library's ring row (the default) or its tree's
  /// (hw::LinkModel::step_latency).
  hw::LibraryAlgorithm algorithm = hw::LibraryAlgorithm::kRing;
};

/// A collective as a DAG of transfers. The local reduction arithmetic is not charged (an
/// approximation the report states).
struct CollectiveSchedule {
  std::string algorithm;
  uint32_t steps = 0;
  std::vector<Transfer> transfers;
};

struct CollectiveRequest {
  workload::CollectiveKind kind = workload::CollectiveKind::kAllReduce;
  core::Bytes bytes;                           ///< full buffer per rank (S), B
  std::vector<topology::NodeId> member_units;  ///< where each member runs, in communicator order
  const topology::Machine* machine = nullptr;
  /// All-to-all-v: peer_bytes[s][d] is what member s sends to member d, B. Empty: S/n to each peer.
  std::vector<std::vector<double>> peer_bytes = {};
};

/// The protocol a scenario asks the collective library for: one of NCCL's for every collective, or per
/// collective the one whose estimate is least (kAuto, as NCCL's tuner picks).
enum class ProtocolSetting : uint8_t { kSimple, kLl128, kLl, kAuto };
/// "simple", "ll128", "ll" or "auto".
std::string_view to_string(ProtocolSetting setting);
/// The setting named `name` (one of to_string's); throws std::invalid_argument for another name.
ProtocolSetting protocol_setting(std::string_view name);

/// The algorithms `auto` chooses among: every one it can estimate, or only those NCCL implements
/// (CollectivePolicy::nccl_algorithm): what a job that runs on NCCL can do.
enum class AlgorithmSet : uint8_t { kAny, kNccl };
/// "any" or "nccl".
std::string_view to_string(AlgorithmSet set);
/// The set named `name` (one of to_string's); throws std::invalid_argument for another name.
AlgorithmSet algorithm_set(std::string_view name);

/// Options of the algorithms that pipeline a buffer in chunks (in-network, double binary tree), and
/// the protocol of every policy's reductions and gathers (ProtocolChoice; not part of params()).
struct CollectiveOptions {
  core::Bytes chunk{4.0 * 1024 * 1024};  ///< largest chunk, B
  uint32_t max_chunks = 64;              ///< most chunks a buffer is split into
  ProtocolSetting protocol = ProtocolSetting::kSimple;
  /// What `auto` picks among. Not part of params(): the scenario's collective object reads it.
  AlgorithmSet algorithms = AlgorithmSet::kAny;
  /// Chunks for a buffer of `bytes`: ceil(bytes / chunk), between 1 and max_chunks.
  uint32_t chunks_for(double bytes) const;

  /// The chunking keys, declared once (type "collective-chunking", defaults the ones above): the
  /// entries of the pipelined algorithms carry this table, and a scenario's collective object holds it.
  static const core::ParamTable& params();
  /// The options `reader` (whose table holds params()'s keys) read.
  static CollectiveOptions from_params(core::ParamReader& reader);
};

/// The endpoint index of the in-network switch next to member m of an n-member communicator.
inline uint32_t switch_endpoint(uint32_t n, uint32_t member) {
  return n + member;
}

/// The node of a transfer endpoint: the member's unit, or the reduction switch next to it. Throws
/// std::logic_error for a switch endpoint of a member with no reduction switch.
topology::NodeId endpoint_node(const topology::Machine& machine, const std::vector<topology::NodeId>& units,
                               uint32_t endpoint);

/// One distinct step of a schedule and how many times it recurs (a ring's 2(n-1) identical steps are one
/// RepeatedStep with repeat 2(n-1)). Dependencies are dropped: the steps run one after another.
struct RepeatedStep {
  std::vector<Transfer> transfers;
  uint32_t repeat = 1;
};

/// A schedule's steps, distinct ones merged with their repeat counts, in order of first occurrence.
/// Steps are equal when they move the same bytes between the same members in the same order, with the
/// same transfers pipelined.
std::vector<RepeatedStep> repeated_steps(const CollectiveSchedule& schedule);

/// A pure function of a collective request to a schedule: no clock, no globals, no simulator types.
class CollectivePolicy {
 public:
  virtual ~CollectivePolicy() = default;
  virtual std::string_view name() const = 0;
  /// Throws std::invalid_argument for a collective kind the policy does not implement.
  virtual CollectiveSchedule schedule(const CollectiveRequest& request) const = 0;
  /// The schedule as distinct steps (for costing it without replaying it) and the algorithm's name. The
  /// default builds the whole schedule; policies whose steps repeat override it to stay linear in the
  /// members where the schedule is quadratic.
  virtual std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const {
    auto s = schedule(request);
    return {s.algorithm, repeated_steps(s)};
  }
  /// Whether the members of this request's schedule advance at their own pace: each transfer waits only
  /// for the earlier steps of its two ends (MPI's blocking send-receive steps), not for a step to end
  /// everywhere. A cost model must then replay the schedule with its dependencies instead of summing its
  /// steps in lockstep. The engine asks this; it never compares a policy's name.
  virtual bool members_advance_independently(const CollectiveRequest& /*request*/) const { return false; }
  /// Which of the collective library's algorithms this request's schedule is, for its fixed cost per
  /// collective (hw::base_latency under the transfers' protocol; collective_base_latency); none (the
  /// default) for schedules that are neither the library's ring nor its tree, which pay no base latency.
  virtual std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& /*request*/) const {
    return std::nullopt;
  }
  /// The NCCL algorithm this request's schedule is, as NCCL_ALGO names it ("Ring", "Tree", "NVLS",
  /// "CollNet"); none (the default) when NCCL has no such algorithm for the request, so that a planner
  /// laying out an NCCL job knows the job cannot run it. A policy answers for itself: nothing compares
  /// its name.
  virtual std::optional<std::string> nccl_algorithm(const CollectiveRequest& /*request*/) const {
    return std::nullopt;
  }
  /// Its own closed-form estimate of the time its schedule for `request` takes when the transfers run
  /// under `protocol`, without the fixed cost per collective (collective_base_latency), from the alpha-beta
  /// models of the members' routes that `routes` measures (and keeps for the next policy asked), s; none
  /// (the default) when it offers no estimate for the request or does not implement its kind. The `auto`
  /// policy chooses among every policy of the catalog that answers, plugins included.
  virtual std::optional<core::Seconds> estimate(const CollectiveRequest& /*request*/,
                                                hw::CollectiveProtocol /*protocol*/,
                                                RouteMeasurements& /*routes*/) const {
    return std::nullopt;
  }
};

/// `policy`'s estimate for `request` under `protocol` with its base latency under it (estimate plus
/// collective_base_latency), s; none when it offers no estimate or its library algorithm does not run
/// under the protocol (hw::runs_under).
std::optional<core::Seconds> estimated_time(const CollectivePolicy& policy, const CollectiveRequest& request,
                                            hw::CollectiveProtocol protocol, RouteMeasurements& routes);

/// Whether `kind` is all-reduce, reduce-scatter or all-gather: the collectives that reduce or gather a
/// buffer over the members, which the ring, in-network and hierarchical algorithms implement.
inline bool reduces_or_gathers(workload::CollectiveKind kind) {
  using workload::CollectiveKind;
  return kind == CollectiveKind::kAllReduce || kind == CollectiveKind::kReduceScatter ||
         kind == CollectiveKind::kAllGather;
}

/// Whether a collective of `kind` is one NCCL_ALGO chooses an algorithm for (all-reduce, reduce-scatter,
/// all-gather, broadcast, reduce); all-to-all runs as NCCL's grouped sends and receives, whatever the
/// policy.
bool nccl_algorithm_applies(workload::CollectiveKind kind);

/// The fixed cost `policy`'s collective for `request` pays once, before its first step, when its
/// transfers run under `protocol` and the machine's step latency is on: hw::base_latency of the policy's
/// library_algorithm, s; 0 when the step latency is off, for one member, or for no library algorithm.
core::Seconds collective_base_latency(const CollectivePolicy& policy, const CollectiveRequest& request,
                                      hw::CollectiveProtocol protocol);

}  // namespace zs::policy
