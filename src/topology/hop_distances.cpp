// Breadth-first searches over a machine's graph.
#include "topology/hop_distances.hpp"

namespace zs::topology {

namespace {

/// hops_from over the nodes of `pod` only (kNoPod: every node).
std::vector<uint32_t> hops_within(const Topology& topo, NodeId from, uint32_t pod) {
  std::vector<uint32_t> hops(topo.nodes().size(), kUnreachable);
  std::vector<NodeId> queue{from};
  hops[from] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId at = queue[head];
    if (at != from && topo.node(at).kind != NodeKind::kSwitch) continue;  // units and pools forward nothing
    for (auto [next, link] : topo.neighbours(at))
      if (hops[next] == kUnreachable && topo.active_at_start(link) &&
          (pod == kNoPod || topo.pod(next) == pod)) {
        hops[next] = hops[at] + 1;
        queue.push_back(next);
      }
  }
  return hops;
}

}  // namespace

std::vector<uint32_t> hops_from(const Machine& machine, NodeId from) {
  const Topology& topo = machine.topology;
  auto hops = hops_within(topo, from, kNoPod);
  const uint32_t pod = topo.pod(from);
  if (pod == kNoPod) return hops;
  // Paths to the nodes of from's own pod stay in it, as routes do.
  const auto inside = hops_within(topo, from, pod);
  for (NodeId n = 0; n < topo.nodes().size(); ++n)
    if (topo.pod(n) == pod) hops[n] = inside[n];
  return hops;
}

std::vector<uint32_t> electrical_islands(const Machine& machine) {
  const Topology& topo = machine.topology;
  std::vector<uint32_t> island(topo.nodes().size(), kUnreachable);
  uint32_t next_island = 0;
  for (NodeId start = 0; start < topo.nodes().size(); ++start) {
    if (island[start] != kUnreachable) continue;
    std::vector<NodeId> stack{start};
    island[start] = next_island;
    while (!stack.empty()) {
      const NodeId at = stack.back();
      stack.pop_back();
      for (auto [next, link] : topo.neighbours(at))
        if (island[next] == kUnreachable && topo.link(link).circuit == kNoCircuit) {
          island[next] = next_island;
          stack.push_back(next);
        }
    }
    ++next_island;
  }
  return island;
}

}  // namespace zs::topology
