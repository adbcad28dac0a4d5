// Alpha-beta models of a communicator's routes, measured once per request for every estimate.
#include "policy/collective/route_measurements.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "policy/collective/hierarchical_collective.hpp"
#include "topology/routing.hpp"

namespace zs::policy {
namespace {

const topology::Machine& machine_of(const CollectiveRequest& request) {
  if (request.machine == nullptr) throw std::invalid_argument("a collective cost estimate needs the machine");
  return *request.machine;
}

/// Every member's index, in order.
std::vector<uint32_t> every_member(const CollectiveRequest& request) {
  std::vector<uint32_t> all(request.member_units.size());
  for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

}  // namespace

void AlphaBeta::include_latency(const topology::Machine& machine,
                                const std::vector<topology::LinkId>& links) {
  alpha = std::max(alpha, topology::transfer_latency(machine, links).value());
  wire = std::max(wire, topology::route_latency(machine, links).value());
  for (auto p : hw::kCollectiveProtocols) {
    step[size_t(p)] = std::max(step[size_t(p)], topology::route_step_latency(machine, links, p).value());
    tree_step[size_t(p)] =
        std::max(tree_step[size_t(p)],
                 topology::route_step_latency(machine, links, p, hw::LibraryAlgorithm::kTree).value());
  }
}

void AlphaBeta::include(const topology::Machine& machine, topology::Router& router, topology::NodeId a,
                        topology::NodeId b) {
  if (a == b) return;
  const topology::Route route{router.route(a, b)};
  include_latency(machine, route.links);
  bandwidth = std::min(bandwidth, topology::route_bandwidth(machine, route).value());
}

AlphaBeta AlphaBeta::under(hw::CollectiveProtocol protocol, hw::LibraryAlgorithm algorithm) const {
  AlphaBeta ab = *this;
  const auto& row = algorithm == hw::LibraryAlgorithm::kTree ? tree_step : step;
  ab.alpha = std::max(wire, row[size_t(protocol)]);
  ab.bandwidth *= hw::bandwidth_fraction(protocol);
  return ab;
}

AlphaBeta& AlphaBeta::done() {
  if (bandwidth == std::numeric_limits<double>::max()) bandwidth = 1e30;
  return *this;
}

RouteMeasurements::RouteMeasurements(const CollectiveRequest& request, SharedRouters* shared)
    : request_(request), shared_(shared) {
  if (shared != nullptr) {
    machine_of(request);  // the same check
    step_routes_ = &shared->ecmp;
  } else {
    step_routes_ = &own_routes_.emplace(machine_of(request), topology::PathSelection::kEcmpHash);
  }
}

topology::Router& RouteMeasurements::lowest_id(std::optional<topology::Router>& local) const {
  if (shared_ != nullptr) return shared_->lowest;
  return local.emplace(*request_.machine, topology::PathSelection::kLowestId, 1);
}

const AlphaBeta& RouteMeasurements::all() {
  if (!all_) all_ = among(every_member(request_));
  return *all_;
}

const AlphaBeta& RouteMeasurements::ring() {
  if (ring_) return *ring_;
  const auto n = static_cast<uint32_t>(request_.member_units.size());
  if (n > kSharedRouteMembers) return *(ring_ = all());
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (uint32_t i = 0; i < n; ++i) pairs.emplace_back(i, (i + 1) % n);
  return *(ring_ = step(pairs));
}

const std::vector<AlphaBeta>& RouteMeasurements::recursive_rounds() {
  if (rounds_) return *rounds_;
  const uint32_t p = recursive_members(request_);
  auto& rounds = rounds_.emplace();
  for (uint32_t distance = 1; distance < p; distance *= 2) {
    if (p <= kSharedRouteMembers) {
      std::vector<std::pair<uint32_t, uint32_t>> pairs;
      for (uint32_t i = 0; i < p; ++i) pairs.emplace_back(i, i ^ distance);
      rounds.push_back(step(pairs));
      continue;
    }
    AlphaBeta ab;
    std::optional<topology::Router> local;
    topology::Router& router = lowest_id(local);
    const uint32_t stride = std::max<uint32_t>(1, p / 16);
    for (uint32_t i = 0; i < p; i += stride)
      ab.include(*request_.machine, router, request_.member_units[i], request_.member_units[i ^ distance]);
    rounds.push_back(ab.done());
  }
  return rounds;
}

const std::vector<std::vector<uint32_t>>& RouteMeasurements::domains() {
  if (!domains_) domains_ = member_domains(request_);
  return *domains_;
}

const DomainLinks& RouteMeasurements::domain_links() {
  if (domain_links_) return *domain_links_;
  const auto& groups = domains();
  if (groups.empty()) throw std::logic_error("domain links asked of members that form no domains");
  std::vector<uint32_t> across;
  for (const auto& domain : groups) across.push_back(domain.front());
  return *(domain_links_ = DomainLinks{among(groups.front()), among(across)});
}

std::optional<RouteMeasurements::DomainShape> RouteMeasurements::reduction_domains(
    hw::CollectiveProtocol protocol) {
  if (!reduces_or_gathers(request_.kind)) return std::nullopt;
  const auto& groups = domains();
  if (groups.empty()) return std::nullopt;
  return DomainShape{double(groups.size()), double(groups.front().size()), domain_links().under(protocol)};
}

AlphaBeta RouteMeasurements::step(const std::vector<std::pair<uint32_t, uint32_t>>& pairs) {
  const topology::Machine& machine = *request_.machine;
  std::vector<std::vector<uint32_t>> directions;  // per pair: 2 l (a to b) or 2 l + 1
  std::unordered_map<uint32_t, uint32_t> crossings;
  AlphaBeta ab;
  for (const auto& [i, j] : pairs) {
    const auto src = request_.member_units[i], dst = request_.member_units[j];
    auto& route = directions.emplace_back();
    if (src == dst) continue;
    const topology::Route links{step_routes_->route(src, dst)};
    ab.include_latency(machine, links.links);
    route = topology::route_directions(machine.topology, src, links.links);
    for (uint32_t d : route) ++crossings[d];
  }
  for (const auto& route : directions)
    for (uint32_t d : route)
      ab.bandwidth = std::min(ab.bandwidth, machine.link_bandwidth(d / 2).value() / crossings[d]);
  return ab.done();
}

AlphaBeta RouteMeasurements::among(const std::vector<uint32_t>& members) const {
  AlphaBeta ab;
  std::optional<topology::Router> local;
  topology::Router& router = lowest_id(local);
  const auto root = request_.member_units[members.front()];
  for (size_t m = 1; m < members.size(); ++m)
    ab.include(*request_.machine, router, request_.member_units[members[m]], root);
  return ab.done();
}

uint32_t recursive_members(const CollectiveRequest& request) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

}  // namespace zs::policy
