// Locality order of units.
#include "topology/locality_order.hpp"

#include <algorithm>
#include <limits>

#include "topology/unit_domains.hpp"

namespace zs::topology {

std::vector<NodeId> locality_order(const Machine& machine) {
  const Topology& topo = machine.topology;
  const auto& units = topo.units();
  if (units.empty()) return {};
  constexpr uint64_t kUnreached = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> reached(topo.nodes().size(), kUnreached);  ///< discovery index of each node
  std::vector<NodeId> queue{units.front()};
  reached[units.front()] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const NodeId at = queue[head];
    if (at != units.front() && topo.node(at).kind == NodeKind::kMemory) continue;  // pools forward nothing
    for (auto [next, link] : topo.neighbours(at))
      if (reached[next] == kUnreached && topo.active_at_start(link)) {
        reached[next] = queue.size();
        queue.push_back(next);
      }
  }
  struct Key {
    uint64_t domain, unit;
    NodeId id;
  };
  std::vector<Key> keys;
  keys.reserve(units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    const NodeId u = units[i];
    const uint64_t own = reached[u] == kUnreached ? kUnreached - units.size() + i : reached[u];
    const auto domain = domain_switch(machine, u);
    const uint64_t d = domain && reached[*domain] != kUnreached ? reached[*domain] : own;
    keys.push_back({d, own, u});
  }
  std::stable_sort(keys.begin(), keys.end(), [](const Key& x, const Key& y) {
    return x.domain != y.domain ? x.domain < y.domain : x.unit < y.unit;
  });
  std::vector<NodeId> order;
  order.reserve(keys.size());
  for (const auto& k : keys) order.push_back(k.id);
  return order;
}

}  // namespace zs::topology
