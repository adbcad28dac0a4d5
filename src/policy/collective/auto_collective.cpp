// Algorithm choice by closed-form estimates.
#include "policy/collective/auto_collective.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/in_network_collective.hpp"
#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "topology/router.hpp"
#include "topology/routing.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// The alpha-beta model of the members' network: the slowest route latency and the narrowest route
/// bandwidth over the routes measured.
struct AlphaBeta {
  double alpha = 0;                                       ///< s
  double bandwidth = std::numeric_limits<double>::max();  ///< B/s
  /// The slowest route's own latency, without a collective library's step latency: what the chunks
  /// behind a pipeline's first pay (Transfer::pipelined), s.
  double wire = 0;
  /// The largest step latency of the routes under each protocol (hw::CollectiveProtocol order; 0 with
  /// the machine's step latency off), s: for the library's ring row, and for its tree's.
  std::array<double, hw::kCollectiveProtocols.size()> step{}, tree_step{};

  /// Takes a route's latency and step latencies into account (its bandwidth is the caller's).
  void include_latency(const topology::Machine& machine, const std::vector<topology::LinkId>& links) {
    alpha = std::max(alpha, topology::transfer_latency(machine, links).value());
    wire = std::max(wire, topology::route_latency(machine, links).value());
    for (auto p : hw::kCollectiveProtocols) {
      step[size_t(p)] = std::max(step[size_t(p)], topology::route_step_latency(machine, links, p).value());
      tree_step[size_t(p)] =
          std::max(tree_step[size_t(p)],
                   topology::route_step_latency(machine, links, p, hw::LibraryAlgorithm::kTree).value());
    }
  }
  /// Takes route a -> b into account (nothing when a and b are one unit).
  void include(const topology::Machine& machine, topology::Router& router, topology::NodeId a,
               topology::NodeId b) {
    if (a == b) return;
    const topology::Route route{router.route(a, b)};
    include_latency(machine, route.links);
    bandwidth = std::min(bandwidth, topology::route_bandwidth(machine, route).value());
  }
  /// The model a collective running under `protocol` sees: every transfer at least the protocol's step
  /// latency, its payload at the protocol's fraction of the bandwidth (ProtocolChoice).
  AlphaBeta under(hw::CollectiveProtocol protocol,
                  hw::LibraryAlgorithm algorithm = hw::LibraryAlgorithm::kRing) const {
    AlphaBeta ab = *this;
    const auto& row = algorithm == hw::LibraryAlgorithm::kTree ? tree_step : step;
    ab.alpha = std::max(wire, row[size_t(protocol)]);
    ab.bandwidth *= hw::bandwidth_fraction(protocol);
    return ab;
  }
  /// Ends the measurement: with no route measured (all on one unit), a bandwidth that costs nothing.
  AlphaBeta& done() {
    if (bandwidth == std::numeric_limits<double>::max()) bandwidth = 1e30;
    return *this;
  }
};

/// Communicators of at most this many members have every transfer of a step routed to find the links
/// the step's transfers share; larger ones are estimated from sampled routes, without sharing.
constexpr size_t kSharedRouteMembers = 1024;

/// The alpha-beta model of a step in which every pair (i, j) of members (indices into the request) sends
/// at once, over the routes the engine takes (per-connection ECMP): the slowest route latency, and the
/// narrowest share of bandwidth any transfer gets, a link direction's bandwidth split evenly among the
/// transfers crossing it (max-min sharing when they are equal). Exchanges that cross a torus or a
/// ring over several hops share links this way, which sampled routes alone do not see.
AlphaBeta measure_step(const CollectiveRequest& request, topology::Router& router,
                       const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  const topology::Machine& machine = *request.machine;
  std::vector<std::vector<uint32_t>> directions;  // per pair: 2 l (a to b) or 2 l + 1
  std::unordered_map<uint32_t, uint32_t> crossings;
  AlphaBeta ab;
  for (const auto& [i, j] : pairs) {
    const auto src = request.member_units[i], dst = request.member_units[j];
    auto& route = directions.emplace_back();
    if (src == dst) continue;
    const topology::Route links{router.route(src, dst)};
    ab.include_latency(machine, links.links);
    route = topology::route_directions(machine.topology, src, links.links);
    for (uint32_t d : route) ++crossings[d];
  }
  for (const auto& route : directions)
    for (uint32_t d : route)
      ab.bandwidth = std::min(ab.bandwidth, machine.link_bandwidth(d / 2).value() / crossings[d]);
  return ab.done();
}

/// The ring's neighbour exchange (member i to i + 1), with the links its transfers share, or `all`
/// beyond kSharedRouteMembers.
AlphaBeta measure_ring(const CollectiveRequest& request, topology::Router& router, const AlphaBeta& all) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  if (n > kSharedRouteMembers) return all;
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t i = 0; i < n; ++i) pairs.emplace_back(i, (i + 1) % n);
  return measure_step(request, router, pairs);
}

/// The alpha-beta model among `members` (indices into the request): the slowest route latency and the
/// narrowest route bandwidth from any of them to the first.
AlphaBeta measure(const CollectiveRequest& request, const std::vector<uint32_t>& members) {
  if (request.machine == nullptr)
    throw std::invalid_argument("the auto policy needs the machine to estimate costs");
  AlphaBeta ab;
  topology::Router router(*request.machine, topology::PathSelection::kLowestId, 1);
  const auto root = request.member_units[members.front()];
  for (size_t m = 1; m < members.size(); ++m)
    ab.include(*request.machine, router, request.member_units[members[m]], root);
  return ab.done();
}

AlphaBeta measure(const CollectiveRequest& request) {
  std::vector<uint32_t> all(request.member_units.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return measure(request, all);
}

/// The alpha-beta model of recursive exchanges at `distance`: every member i sends to i ^ distance at
/// once, with the links they share (measure_step); beyond kSharedRouteMembers, the slowest latency and
/// narrowest bandwidth of the routes of at most 16 members i spread evenly.
AlphaBeta measure_exchange(const CollectiveRequest& request, topology::Router& shared_routes, uint32_t p,
                           uint32_t distance) {
  if (p <= kSharedRouteMembers) {
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < p; ++i) pairs.emplace_back(i, i ^ distance);
    return measure_step(request, shared_routes, pairs);
  }
  AlphaBeta ab;
  topology::Router router(*request.machine, topology::PathSelection::kLowestId, 1);
  const uint32_t stride = std::max<uint32_t>(1, p / 16);
  for (uint32_t i = 0; i < p; i += stride)
    ab.include(*request.machine, router, request.member_units[i], request.member_units[i ^ distance]);
  return ab.done();
}

/// The alpha-beta models inside one domain and across domains (among the domains' first members).
struct DomainLinks {
  AlphaBeta inside, between;
  DomainLinks under(hw::CollectiveProtocol protocol) const {
    return {inside.under(protocol), between.under(protocol)};
  }
};

DomainLinks measure_domains(const CollectiveRequest& request,
                            const std::vector<std::vector<uint32_t>>& domains) {
  std::vector<uint32_t> across;
  for (const auto& domain : domains) across.push_back(domain.front());
  return {measure(request, domains.front()), measure(request, across)};
}

/// The largest power of two at most the members.
uint32_t recursive_members(const CollectiveRequest& request) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/// The alpha-beta models of the recursive exchanges, by log2(distance).
std::vector<AlphaBeta> recursive_rounds(const CollectiveRequest& request, topology::Router& shared_routes) {
  const uint32_t p = recursive_members(request);
  std::vector<AlphaBeta> rounds;
  for (uint32_t distance = 1; distance < p; distance *= 2)
    rounds.push_back(measure_exchange(request, shared_routes, p, distance));
  return rounds;
}

/// The recursive estimate under `protocol`, round by round at each round's own distance
/// (recursive_collective.hpp): halving sends S/2, S/4, ... at distances p/2, p/4, ...; doubling S/p,
/// 2S/p, ... at 1, 2, ...; a communicator that is not a power of two folds its extra members in and out
/// (S each way).
double recursive_estimate(const CollectiveRequest& request, const std::vector<AlphaBeta>& rounds,
                          const AlphaBeta& all_routes, hw::CollectiveProtocol protocol) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const uint32_t p = recursive_members(request);
  const double S = request.bytes.value();
  const AlphaBeta all = all_routes.under(protocol);
  double t = p == n ? 0 : 2 * (all.alpha + S / all.bandwidth);
  if (request.kind != CollectiveKind::kAllGather) {
    double bytes = S;
    for (size_t j = rounds.size(); j-- > 0;) {
      bytes /= 2;
      const AlphaBeta r = rounds[j].under(protocol);
      t += r.alpha + bytes / r.bandwidth;
    }
  }
  if (request.kind != CollectiveKind::kReduceScatter) {
    double block = S / p;
    for (const auto& round : rounds) {
      const AlphaBeta r = round.under(protocol);
      t += r.alpha + block / r.bandwidth;
      block *= 2;
    }
  }
  return t;
}

/// The in-network estimate (in_network_collective.hpp): k chunks up at eta B, each coming down once it is
/// reduced; the slower way paces the chunks. The first chunk pays the step latency each way, when there
/// is one; the others their routes' latency.
double in_network_estimate(const CollectiveRequest& request, topology::NodeId sw, const AlphaBeta& ab,
                           const CollectiveOptions& options) {
  const double n = double(request.member_units.size()), S = request.bytes.value();
  const double eta = request.machine->switch_model(sw)->reduction_efficiency();
  const double wire = ab.wire / 2;  // member to switch is half a member-to-member route
  const double first = ab.alpha > ab.wire ? ab.alpha : wire;  // a step latency is the link's, not halved
  const double k = options.chunks_for(S);
  double up = S / k / eta, down = S / k;
  if (request.kind == CollectiveKind::kReduceScatter) down /= n;
  if (request.kind == CollectiveKind::kAllGather) up = S / k / n;
  const double x = up / ab.bandwidth, y = down / ab.bandwidth;
  const double up_paced = first + x + (k - 1) * (wire + x) + wire + y;
  const double down_paced = 2 * first + x + y + (k - 1) * (wire + y);
  return std::max(up_paced, down_paced);
}

/// The hierarchical estimate: rings inside the domains and across them, pipelined in k chunks
/// (hierarchical_collective.hpp): one chunk through every phase, then k - 1 more at the pace of the
/// busier of the domain links and the network links.
double hierarchical_estimate(const CollectiveRequest& request,
                             const std::vector<std::vector<uint32_t>>& domains, const DomainLinks& links,
                             const CollectiveOptions& options) {
  const double d = double(domains.size()), m = double(domains.front().size()), S = request.bytes.value();
  const double k = options.chunks_for(S);
  const auto& [inside, between] = links;
  const double phases = request.kind == CollectiveKind::kAllReduce ? 2 : 1;
  const double intra = (m - 1) * (inside.alpha + S / k / m / inside.bandwidth);
  const double inter = (d - 1) * (between.alpha + S / k / m / d / between.bandwidth);
  const double pace =
      phases * std::max((m - 1) * S / k / m / inside.bandwidth, (d - 1) * S / k / m / d / between.bandwidth);
  return phases * (intra + inter) + (k - 1) * pace;
}

/// The channel rings' estimate (channel_rings.hpp): every step, S/(m n) over the network and (m - 1) of
/// them over the domain link, whichever takes longer.
double channel_rings_estimate(const CollectiveRequest& request,
                              const std::vector<std::vector<uint32_t>>& domains, const DomainLinks& links) {
  const double d = double(domains.size()), m = double(domains.front().size()), n = d * m;
  const double S = request.bytes.value();
  const auto& [inside, between] = links;
  const double steps = request.kind == CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1;
  return steps * (std::max(inside.alpha, between.alpha) +
                  std::max(S / (m * n) / between.bandwidth, (m - 1) * S / (m * n) / inside.bandwidth));
}

/// Hops on the longest path to the root of a binomial tree of n members: member i is popcount(i)
/// hops away. Members do not wait for a step to end everywhere, so this, not ceil(lg n), is the
/// latency depth when n is not a power of two.
double tree_depth(size_t n) {
  int depth = 0;
  for (size_t i = 0; i < n; ++i) depth = std::max(depth, __builtin_popcountll(i));
  return depth;
}

/// The protocols auto estimates each algorithm under: the one the scenario names, or all three when the
/// protocol is chosen per collective (the algorithm and the protocol picked together, as NCCL's tuner does).
std::vector<hw::CollectiveProtocol> candidate_protocols(ProtocolSetting setting) {
  switch (setting) {
    case ProtocolSetting::kSimple:
      return {hw::CollectiveProtocol::kSimple};
    case ProtocolSetting::kLl128:
      return {hw::CollectiveProtocol::kLl128};
    case ProtocolSetting::kLl:
      return {hw::CollectiveProtocol::kLl};
    case ProtocolSetting::kAuto:
      break;
  }
  return {hw::kCollectiveProtocols.begin(), hw::kCollectiveProtocols.end()};
}

}  // namespace

std::unique_ptr<CollectivePolicy> AutoCollective::choose(const CollectiveRequest& request) const {
  using hw::CollectiveProtocol;
  const double n = double(request.member_units.size());
  if (n <= 1) return std::make_unique<RingCollective>();
  const AlphaBeta all = measure(request);
  const bool reduction = request.kind == CollectiveKind::kAllReduce ||
                         request.kind == CollectiveKind::kReduceScatter ||
                         request.kind == CollectiveKind::kAllGather;
  // The ECMP routes of the ring's and the recursive rounds' steps: every member is a destination in each,
  // so one router's distance maps serve them all.
  topology::Router shared_routes(*request.machine, topology::PathSelection::kEcmpHash);
  const AlphaBeta ring = reduction ? measure_ring(request, shared_routes, all) : all;
  const double S = request.bytes.value();
  const double lg = std::ceil(std::log2(n));
  const bool power_of_two = std::exp2(lg) == n;
  const double depth = tree_depth(request.member_units.size());
  // Candidates in order of preference on a tie, each estimated under every protocol it may run.
  struct Candidate {
    double seconds;
    std::function<std::unique_ptr<CollectivePolicy>()> make;
  };
  std::vector<Candidate> candidates;
  const auto protocols = candidate_protocols(options_.protocol);
  // A candidate's time: its least estimate over the protocols, each with its base latency under it.
  auto add = [&](const std::function<double(CollectiveProtocol)>& estimate,
                 std::function<std::unique_ptr<CollectivePolicy>()> make) {
    const auto made = make();
    if (options_.algorithms == AlgorithmSet::kNccl && !made->nccl_algorithm(request))
      return;  // not an NCCL job's
    double least = std::numeric_limits<double>::infinity();
    const auto algorithm = made->library_algorithm(request);
    for (auto p : protocols)
      if (!algorithm || hw::runs_under(*algorithm, p))
        least = std::min(least, estimate(p) + collective_base_latency(*made, request, p).value());
    if (least == std::numeric_limits<double>::infinity()) return;  // runs under none of the protocols
    candidates.push_back({least, std::move(make)});
  };
  switch (request.kind) {
    case CollectiveKind::kAllReduce: {
      add(
          [&](CollectiveProtocol p) {
            const AlphaBeta r = ring.under(p);
            return 2 * (n - 1) * r.alpha + 2 * (n - 1) / n * S / r.bandwidth;
          },
          [] { return std::make_unique<RingCollective>(); });
      const auto rounds = recursive_rounds(request, shared_routes);
      add([&](CollectiveProtocol p) { return recursive_estimate(request, rounds, all, p); },
          [] { return std::make_unique<RecursiveCollective>(); });
      add(
          [&](CollectiveProtocol p) {
            const AlphaBeta a = all.under(p);
            return 2 * (depth * a.alpha + lg * S / a.bandwidth);
          },
          [] { return std::make_unique<TreeCollective>(); });
      const double k = options_.chunks_for(S / 2), H = std::floor(std::log2(n));
      // The first chunk pays the step latency on each of the 2H steps of its way, the others the wire's.
      add(
          [&](CollectiveProtocol p) {
            const AlphaBeta a = all.under(p, hw::LibraryAlgorithm::kTree);
            return 2 * H * a.alpha + k * a.wire + (k + 2 * H) * 2 * S / k / a.bandwidth;
          },
          [this] { return std::make_unique<DoubleBinaryTreeCollective>(options_); });
      break;
    }
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
      add(
          [&](CollectiveProtocol p) {
            const AlphaBeta r = ring.under(p);
            return (n - 1) * r.alpha + (n - 1) / n * S / r.bandwidth;
          },
          [] { return std::make_unique<RingCollective>(); });
      if (power_of_two) {
        const auto rounds = recursive_rounds(request, shared_routes);
        add([&](CollectiveProtocol p) { return recursive_estimate(request, rounds, all, p); },
            [] { return std::make_unique<RecursiveCollective>(); });
      }
      break;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce:
      add(
          [&](CollectiveProtocol p) {
            const AlphaBeta a = all.under(p);
            return depth * a.alpha + lg * S / a.bandwidth;
          },
          [] { return std::make_unique<TreeCollective>(); });
      break;
    case CollectiveKind::kAllToAll:
      break;
  }
  if (reduction) {
    if (const auto sw = shared_reduction_switch(request))
      add([&](CollectiveProtocol p) { return in_network_estimate(request, *sw, all.under(p), options_); },
          [this] { return std::make_unique<InNetworkCollective>(options_); });
    if (const auto domains = member_domains(request); !domains.empty()) {
      const DomainLinks links = measure_domains(request, domains);
      add([&](CollectiveProtocol p) { return channel_rings_estimate(request, domains, links.under(p)); },
          [] { return std::make_unique<ChannelRingsCollective>(); });
      add(
          [&](CollectiveProtocol p) {
            return hierarchical_estimate(request, domains, links.under(p), options_);
          },
          [this] { return std::make_unique<HierarchicalCollective>(options_); });
    }
  }
  if (candidates.empty()) return std::make_unique<RingCollective>();
  const auto best = std::min_element(candidates.begin(), candidates.end(),
                                     [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  return best->make();
}

CollectiveSchedule AutoCollective::schedule(const CollectiveRequest& request) const {
  auto s = request.kind == CollectiveKind::kAllToAll ? direct_all_to_all(request)
                                                     : choose(request)->schedule(request);
  s.algorithm = "auto:" + s.algorithm;
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> AutoCollective::steps(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return CollectivePolicy::steps(request);
  auto picked = choose(request)->steps(request);
  picked.first = "auto:" + picked.first;
  return picked;
}

std::optional<std::string> AutoCollective::nccl_algorithm(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return std::nullopt;
  return choose(request)->nccl_algorithm(request);
}

std::optional<hw::LibraryAlgorithm> AutoCollective::library_algorithm(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return std::nullopt;
  return choose(request)->library_algorithm(request);
}

}  // namespace zs::policy
