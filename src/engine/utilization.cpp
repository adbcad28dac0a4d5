// Utilization of compute units, link directions and memory pools over one replayed iteration.
#include "engine/utilization.hpp"

#include <algorithm>
#include <vector>

namespace zs::engine {

Utilization utilization_of(const topology::Machine& machine, const ReplayResult& r) {
  Utilization u;
  const double t = r.iteration_time.value();
  u.compute_min = 1.0;
  double represented = 0;
  for (const auto& rank : r.ranks) represented += double(rank.stands_for);
  for (const auto& rank : r.ranks) {
    const double c = rank.compute.value() / t;
    u.compute_mean += c * double(rank.stands_for) / represented;
    u.compute_max = std::max(u.compute_max, c);
    if (c < u.compute_min) {
      u.compute_min = c;
      u.compute_min_rank = rank.rank;
    }
  }
  const auto& topo = machine.topology;
  std::vector<double> pool_bytes(topo.nodes().size(), 0.0);
  for (size_t d = 0; d < r.link_bytes.size(); ++d) {
    if (r.link_bytes[d] <= 0) continue;
    const auto& link = topo.links()[d / 2];
    const double busy = r.link_bytes[d] / (machine.link_bandwidth(topology::LinkId(d / 2)).value() * t);
    ++u.links_active;
    u.link_mean_active += busy;
    if (busy > 0.5) ++u.links_over_half;
    const auto from = d % 2 == 0 ? link.a : link.b, to = d % 2 == 0 ? link.b : link.a;
    if (busy > u.link_max) {
      u.link_max = busy;
      u.link_max_name = topo.node(from).name + " -> " + topo.node(to).name;
    }
    for (auto end : {from, to})
      if (topo.node(end).kind == topology::NodeKind::kMemory) pool_bytes[end] += r.link_bytes[d];
  }
  if (u.links_active > 0) u.link_mean_active /= double(u.links_active);
  for (auto pool : topo.memories())
    if (pool_bytes[pool] > 0)
      u.pool_max =
          std::max(u.pool_max, pool_bytes[pool] / (machine.memory_model(pool).bandwidth().value() * t));
  return u;
}

}  // namespace zs::engine
