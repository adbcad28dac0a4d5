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
core::Seconds route_latency(const Machine& machine, const Route& route);
/// Bandwidth of the route's narrowest link, B/s per direction.
core::ByteRate route_bandwidth(const Machine& machine, const Route& route);

}  // namespace zs::topology
