// Shortest-path routes between nodes, and the latency and bandwidth of a route.
#pragma once

#include <vector>

#include "core/units.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// The links a route crosses, in order from source to destination.
struct Route {
  std::vector<LinkId> links;
};

/// Fewest-hops route; among equal routes, the one through lower node ids (deterministic).
/// Throws std::invalid_argument when dst is unreachable.
Route shortest_route(const Topology& topo, NodeId src, NodeId dst);

/// Sum of link latencies along the route plus the latency of every switch it crosses, s.
core::Seconds route_latency(const Machine& machine, const std::vector<LinkId>& links);
inline core::Seconds route_latency(const Machine& machine, const Route& route) {
  return route_latency(machine, route.links);
}
/// The largest step_latency of the route's links: the least time one step of a collective library
/// takes over it, s (0 when no link model gives one, or when the machine's step_latency is off).
/// Under `protocol`, each link's step latency for that protocol, and for a step of the library's tree its
/// tree row (hw::LinkModel::step_latency).
core::Seconds route_step_latency(const Machine& machine, const std::vector<LinkId>& links,
                                 hw::CollectiveProtocol protocol = hw::CollectiveProtocol::kSimple,
                                 hw::LibraryAlgorithm algorithm = hw::LibraryAlgorithm::kRing);
/// Latency of one transfer along the route: route_latency, at least route_step_latency, s.
core::Seconds transfer_latency(const Machine& machine, const std::vector<LinkId>& links);
/// Bandwidth of the route's narrowest link, B/s per direction.
core::ByteRate route_bandwidth(const Machine& machine, const Route& route);

/// The link directions a route from `src` crosses, in order: 2 l when it crosses link l from its end a to
/// its end b, 2 l + 1 the other way (the numbering of per-direction loads).
std::vector<uint32_t> route_directions(const Topology& topo, NodeId src, const std::vector<LinkId>& links);

}  // namespace zs::topology
