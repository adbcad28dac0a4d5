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

core::Seconds route_latency(const Machine& machine, const std::vector<LinkId>& links) {
  // Each link adds its latency and, after the first, that of the switch it leaves from (the node it
  // shares with the link before it).
  double total = 0;
  for (size_t i = 0; i < links.size(); ++i) {
    double transit = 0;
    if (i > 0) {
      const auto& x = machine.topology.link(links[i - 1]);
      const auto& y = machine.topology.link(links[i]);
      transit = machine.transit_latency((x.a == y.a || x.a == y.b) ? x.a : x.b).value();
    }
    total += machine.link_model(links[i]).latency().value() + transit;
  }
  return core::Seconds(total);
}

core::Seconds route_step_latency(const Machine& machine, const std::vector<LinkId>& links,
                                 hw::CollectiveProtocol protocol, hw::LibraryAlgorithm algorithm) {
  core::Seconds floor(0.0);
  if (!machine.step_latency) return floor;
  for (LinkId l : links) floor = std::max(floor, machine.link_model(l).step_latency(protocol, algorithm));
  return floor;
}

core::Seconds transfer_latency(const Machine& machine, const std::vector<LinkId>& links) {
  return std::max(route_latency(machine, links), route_step_latency(machine, links));
}

std::vector<uint32_t> route_directions(const Topology& topo, NodeId src, const std::vector<LinkId>& links) {
  std::vector<uint32_t> out;
  out.reserve(links.size());
  NodeId at = src;
  for (LinkId l : links) {
    const auto& link = topo.link(l);
    const bool forward = link.a == at;
    out.push_back(2 * l + (forward ? 0 : 1));
    at = forward ? link.b : link.a;
  }
  return out;
}

core::ByteRate route_bandwidth(const Machine& machine, const Route& route) {
  core::ByteRate narrowest(std::numeric_limits<double>::infinity());
  for (LinkId l : route.links) narrowest = std::min(narrowest, machine.link_bandwidth(l));
  return narrowest;
}

}  // namespace zs::topology
