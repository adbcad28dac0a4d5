// Memory pool attachment.
#include "topology/memory_pools.hpp"

#include <limits>
#include <queue>

namespace zs::topology {

NodeId add_memory_pool(Machine& machine, std::string name, uint32_t model, NodeId attach_to) {
  const auto& pool = machine.memory_models.at(model);
  std::string link_name = pool.name() + "-ports";
  uint32_t link_model = 0;
  while (link_model < machine.link_models.size() && machine.link_models[link_model].name() != link_name)
    ++link_model;
  if (link_model == machine.link_models.size())
    machine.link_models.push_back(hw::LinkModel::derived(
        link_name, pool.port_bandwidth(), pool.load_latency(),
        "memory pool \"" + pool.name() + "\": one port's bandwidth, and its load latency",
        "the memory pool's power (its ports and the switch ports they take)"));
  NodeId node = machine.topology.add_memory(std::move(name), model);
  machine.topology.add_link(node, attach_to, link_model, double(pool.ports()));
  return node;
}

std::optional<NodeId> nearest_memory_pool(const Topology& topo, NodeId unit) {
  if (topo.memories().empty()) return std::nullopt;
  std::vector<uint32_t> dist(topo.nodes().size(), std::numeric_limits<uint32_t>::max());
  std::queue<NodeId> q;
  dist[unit] = 0;
  q.push(unit);
  std::optional<NodeId> best;
  while (!q.empty()) {
    NodeId n = q.front();
    q.pop();
    if (best && dist[n] > dist[*best]) break;
    if (topo.node(n).kind == NodeKind::kMemory && (!best || n < *best)) best = n;
    for (auto [m, link] : topo.neighbours(n))
      if (dist[m] == std::numeric_limits<uint32_t>::max()) {
        dist[m] = dist[n] + 1;
        q.push(m);
      }
  }
  return best;
}

std::vector<NodeId> nearest_memory_pools(const Topology& topo) {
  if (topo.memories().empty()) return {};
  constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> dist(topo.nodes().size(), kFar);
  std::vector<NodeId> nearest(topo.nodes().size(), std::numeric_limits<NodeId>::max());
  std::vector<NodeId> frontier;
  for (NodeId pool : topo.memories()) {  // in creation order, which is ascending node id
    dist[pool] = 0;
    nearest[pool] = pool;
    frontier.push_back(pool);
  }
  // Layer by layer: a node's nearest pool is the lowest among those of its neighbours one layer closer,
  // and that layer is finished before the node is expanded.
  for (size_t head = 0; head < frontier.size(); ++head) {
    NodeId n = frontier[head];
    for (auto [m, link] : topo.neighbours(n)) {
      if (topo.node(m).kind == NodeKind::kMemory) continue;
      if (dist[m] == kFar) {
        dist[m] = dist[n] + 1;
        nearest[m] = nearest[n];
        frontier.push_back(m);
      } else if (dist[m] == dist[n] + 1 && nearest[n] < nearest[m]) {
        nearest[m] = nearest[n];
      }
    }
  }
  return nearest;
}

}  // namespace zs::topology
