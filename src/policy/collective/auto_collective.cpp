// Algorithm choice by closed-form estimates.
#include "policy/collective/auto_collective.hpp"

#include <algorithm>
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

  /// Takes route a -> b into account (nothing when a and b are one unit).
  void include(const topology::Machine& machine, topology::Router& router, topology::NodeId a,
               topology::NodeId b) {
    if (a == b) return;
    const topology::Route route{router.route(a, b)};
    alpha = std::max(alpha, topology::transfer_latency(machine, route.links).value());
    wire = std::max(wire, topology::route_latency(machine, route.links).value());
    bandwidth = std::min(bandwidth, topology::route_bandwidth(machine, route).value());
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
    ab.alpha = std::max(ab.alpha, topology::transfer_latency(machine, links.links).value());
    ab.wire = std::max(ab.wire, topology::route_latency(machine, links.links).value());
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
};

DomainLinks measure_domains(const CollectiveRequest& request,
                            const std::vector<std::vector<uint32_t>>& domains) {
  std::vector<uint32_t> across;
  for (const auto& domain : domains) across.push_back(domain.front());
  return {measure(request, domains.front()), measure(request, across)};
}

/// The recursive estimate, round by round at each round's own distance (recursive_collective.hpp):
/// halving sends S/2, S/4, ... at distances p/2, p/4, ...; doubling S/p, 2S/p, ... at 1, 2, ...; a
/// communicator that is not a power of two folds its extra members in and out (S each way).
double recursive_estimate(const CollectiveRequest& request, topology::Router& shared_routes,
                          const AlphaBeta& all) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  const double S = request.bytes.value();
  double t = p == n ? 0 : 2 * (all.alpha + S / all.bandwidth);
  std::vector<AlphaBeta> round;  // by log2(distance)
  for (uint32_t distance = 1; distance < p; distance *= 2)
    round.push_back(measure_exchange(request, shared_routes, p, distance));
  if (request.kind != CollectiveKind::kAllGather) {
    double bytes = S;
    for (size_t j = round.size(); j-- > 0;) {
      bytes /= 2;
      t += round[j].alpha + bytes / round[j].bandwidth;
    }
  }
  if (request.kind != CollectiveKind::kReduceScatter) {
    double block = S / p;
    for (const auto& r : round) {
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
                             const std::vector<std::vector<uint32_t>>& domains,
                             const CollectiveOptions& options) {
  const double d = double(domains.size()), m = double(domains.front().size()), S = request.bytes.value();
  const double k = options.chunks_for(S);
  const auto [inside, between] = measure_domains(request, domains);
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
                              const std::vector<std::vector<uint32_t>>& domains) {
  const double d = double(domains.size()), m = double(domains.front().size()), n = d * m;
  const double S = request.bytes.value();
  const auto [inside, between] = measure_domains(request, domains);
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

}  // namespace

std::unique_ptr<CollectivePolicy> AutoCollective::choose(const CollectiveRequest& request) const {
  const double n = double(request.member_units.size());
  if (n <= 1) return std::make_unique<RingCollective>();
  const AlphaBeta all = measure(request);
  const double alpha = all.alpha, B = all.bandwidth;
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
  constexpr double kNever = std::numeric_limits<double>::max();
  // Candidates in order of preference on a tie.
  struct Candidate {
    double seconds;
    std::function<std::unique_ptr<CollectivePolicy>()> make;
  };
  std::vector<Candidate> candidates;
  // With the library's step latency on, each candidate also pays its base latency (Simple's).
  auto add = [&](double seconds, std::function<std::unique_ptr<CollectivePolicy>()> make) {
    if (seconds >= kNever) return;
    seconds += collective_base_latency(*make(), request, hw::CollectiveProtocol::kSimple).value();
    candidates.push_back({seconds, std::move(make)});
  };
  switch (request.kind) {
    case CollectiveKind::kAllReduce: {
      add(2 * (n - 1) * ring.alpha + 2 * (n - 1) / n * S / ring.bandwidth,
          [] { return std::make_unique<RingCollective>(); });
      add(recursive_estimate(request, shared_routes, all),
          [] { return std::make_unique<RecursiveCollective>(); });
      add(2 * (tree_depth(request.member_units.size()) * alpha + lg * S / B),
          [] { return std::make_unique<TreeCollective>(); });
      const double k = options_.chunks_for(S / 2), H = std::floor(std::log2(n));
      // The first chunk pays the step latency on each of the 2H steps of its way, the others the wire's.
      add(2 * H * alpha + k * all.wire + (k + 2 * H) * 2 * S / k / B,
          [this] { return std::make_unique<DoubleBinaryTreeCollective>(options_); });
      break;
    }
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
      add((n - 1) * ring.alpha + (n - 1) / n * S / ring.bandwidth,
          [] { return std::make_unique<RingCollective>(); });
      if (power_of_two)
        add(recursive_estimate(request, shared_routes, all),
            [] { return std::make_unique<RecursiveCollective>(); });
      break;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce:
      add(tree_depth(request.member_units.size()) * alpha + lg * S / B,
          [] { return std::make_unique<TreeCollective>(); });
      break;
    case CollectiveKind::kAllToAll:
      break;
  }
  if (reduction) {
    if (const auto sw = shared_reduction_switch(request))
      add(in_network_estimate(request, *sw, all, options_),
          [this] { return std::make_unique<InNetworkCollective>(options_); });
    if (const auto domains = member_domains(request); !domains.empty()) {
      add(channel_rings_estimate(request, domains),
          [] { return std::make_unique<ChannelRingsCollective>(); });
      add(hierarchical_estimate(request, domains, options_),
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

std::optional<hw::LibraryAlgorithm> AutoCollective::library_algorithm(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return std::nullopt;
  return choose(request)->library_algorithm(request);
}

}  // namespace zs::policy
