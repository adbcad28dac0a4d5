// Algorithm choice by closed-form estimates.
#include "policy/auto_collective.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "policy/all_to_all.hpp"
#include "policy/recursive_collective.hpp"
#include "policy/ring_collective.hpp"
#include "topology/router.hpp"
#include "topology/routing.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// The alpha-beta model of the members' network: the slowest route latency and the narrowest route
/// bandwidth from any member to member 0.
struct AlphaBeta {
  double alpha = 0;                                       ///< s
  double bandwidth = std::numeric_limits<double>::max();  ///< B/s
};

AlphaBeta measure(const CollectiveRequest& request) {
  AlphaBeta ab;
  if (request.machine == nullptr)
    throw std::invalid_argument("the auto policy needs the machine to estimate costs");
  topology::Router router(request.machine->topology, topology::PathSelection::kLowestId, 1);
  const auto root = request.member_units.front();
  for (size_t m = 1; m < request.member_units.size(); ++m) {
    if (request.member_units[m] == root) continue;
    const topology::Route route{router.route(request.member_units[m], root)};
    ab.alpha = std::max(ab.alpha, topology::route_latency(*request.machine, route).value());
    ab.bandwidth = std::min(ab.bandwidth, topology::route_bandwidth(*request.machine, route).value());
  }
  if (ab.bandwidth == std::numeric_limits<double>::max()) ab.bandwidth = 1e30;  // all on one unit
  return ab;
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
  std::unique_ptr<CollectivePolicy> pick = std::make_unique<RingCollective>();
  if (n > 1) {
    const auto [alpha, B] = measure(request);
    const double S = request.bytes.value();
    const double lg = std::ceil(std::log2(n));
    const bool power_of_two = std::exp2(lg) == n;
    const double p = std::exp2(std::floor(std::log2(n)));
    double ring = 0, recursive = std::numeric_limits<double>::max(),
           tree = std::numeric_limits<double>::max();
    switch (request.kind) {
      case CollectiveKind::kAllReduce:
        ring = 2 * (n - 1) * alpha + 2 * (n - 1) / n * S / B;
        recursive = power_of_two ? 2 * lg * alpha + 2 * (n - 1) / n * S / B
                                 : 2 * std::log2(p) * alpha + 2 * (p - 1) / p * S / B + 2 * (alpha + S / B);
        tree = 2 * (tree_depth(request.member_units.size()) * alpha + lg * S / B);
        break;
      case CollectiveKind::kReduceScatter:
      case CollectiveKind::kAllGather:
        ring = (n - 1) * alpha + (n - 1) / n * S / B;
        if (power_of_two) recursive = lg * alpha + (n - 1) / n * S / B;
        break;
      case CollectiveKind::kBroadcast:
      case CollectiveKind::kReduce:
        ring = std::numeric_limits<double>::max();
        tree = tree_depth(request.member_units.size()) * alpha + lg * S / B;
        break;
      case CollectiveKind::kAllToAll:
        break;
    }
    if (recursive < ring && recursive <= tree)
      pick = std::make_unique<RecursiveCollective>();
    else if (tree < ring && tree < recursive)
      pick = std::make_unique<TreeCollective>();
  }
  return pick;
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

}  // namespace zs::policy
