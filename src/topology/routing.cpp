// Breadth-first shortest routes.
#include "topology/routing.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>

namespace zs::topology {

Route shortest_route(const Topology& topo, NodeId src, NodeId dst) {
  constexpr NodeId kNone = std::numeric_limits<NodeId>::max();
  std::vector<NodeId> parent(topo.nodes().size(), kNone);
  std::vector<LinkId> via(topo.nodes().size(), 0);
  std::queue<NodeId> frontier;
  parent[src] = src;
  frontier.push(src);
  while (!frontier.empty() && parent[dst] == kNone) {
    NodeId n = frontier.front();
    frontier.pop();
    auto next = topo.neighbours(n);
    std::sort(next.begin(), next.end());  // lower node ids first, for determinism
    for (auto [m, link] : next) {
      if (parent[m] != kNone) continue;
      parent[m] = n;
      via[m] = link;
      frontier.push(m);
    }
  }
  if (parent[dst] == kNone)
    throw std::invalid_argument("no route from " + topo.node(src).name + " to " + topo.node(dst).name);
  Route r;
  for (NodeId n = dst; n != src; n = parent[n]) r.links.push_back(via[n]);
  std::reverse(r.links.begin(), r.links.end());
  return r;
}

core::Seconds route_latency(const Machine& machine, const Route& route) {
  core::Seconds total(0.0);
  for (LinkId l : route.links) total += machine.link_model(l).latency();
  // Every node between two consecutive links is crossed; a switch adds its model's latency.
  for (size_t i = 0; i + 1 < route.links.size(); ++i) {
    const auto& x = machine.topology.link(route.links[i]);
    const auto& y = machine.topology.link(route.links[i + 1]);
    NodeId shared = (x.a == y.a || x.a == y.b) ? x.a : x.b;
    total += machine.transit_latency(shared);
  }
  return total;
}

core::ByteRate route_bandwidth(const Machine& machine, const Route& route) {
  core::ByteRate narrowest(std::numeric_limits<double>::infinity());
  for (LinkId l : route.links) narrowest = std::min(narrowest, machine.link_bandwidth(l));
  return narrowest;
}

}  // namespace zs::topology
