// Diameter by breadth-first search, bisection by maximum flow (Dinic).
#include "topology/topology_metrics.hpp"

#include <algorithm>
#include <limits>
#include <queue>

namespace zs::topology {
namespace {

/// Dinic's maximum flow on a directed graph with real capacities.
class MaxFlow {
 public:
  explicit MaxFlow(size_t nodes) : head_(nodes, -1), level_(nodes), next_arc_(nodes) {}

  void add_arc(size_t from, size_t to, double capacity) {
    arcs_.push_back({to, head_[from], capacity});
    head_[from] = int64_t(arcs_.size() - 1);
    arcs_.push_back({from, head_[to], 0.0});
    head_[to] = int64_t(arcs_.size() - 1);
  }

  double run(size_t source, size_t sink) {
    double total = 0;
    while (build_levels(source, sink)) {
      next_arc_ = head_;
      while (double pushed = push(source, sink, std::numeric_limits<double>::infinity())) total += pushed;
    }
    return total;
  }

 private:
  struct Arc {
    size_t to;
    int64_t next;
    double capacity;
  };
  static constexpr double kEpsilon = 1e-9;

  bool build_levels(size_t source, size_t sink) {
    std::fill(level_.begin(), level_.end(), -1);
    std::queue<size_t> q;
    level_[source] = 0;
    q.push(source);
    while (!q.empty()) {
      size_t n = q.front();
      q.pop();
      for (int64_t a = head_[n]; a >= 0; a = arcs_[a].next)
        if (arcs_[a].capacity > kEpsilon && level_[arcs_[a].to] < 0) {
          level_[arcs_[a].to] = level_[n] + 1;
          q.push(arcs_[a].to);
        }
    }
    return level_[sink] >= 0;
  }

  double push(size_t n, size_t sink, double limit) {
    if (n == sink) return limit;
    for (int64_t& a = next_arc_[n]; a >= 0; a = arcs_[a].next) {
      Arc& arc = arcs_[a];
      if (arc.capacity <= kEpsilon || level_[arc.to] != level_[n] + 1) continue;
      if (double got = push(arc.to, sink, std::min(limit, arc.capacity)); got > 0) {
        arc.capacity -= got;
        arcs_[a ^ 1].capacity += got;
        return got;
      }
    }
    return 0;
  }

  std::vector<int64_t> head_;
  std::vector<Arc> arcs_;
  std::vector<int64_t> level_;
  std::vector<int64_t> next_arc_;
};

}  // namespace

Diameter unit_diameter(const Topology& topo, uint64_t max_sources) {
  const auto& units = topo.units();
  Diameter d;
  const uint64_t stride = units.size() > max_sources ? (units.size() + max_sources - 1) / max_sources : 1;
  d.exact = stride == 1;
  std::vector<uint32_t> dist(topo.nodes().size());
  std::queue<NodeId> q;
  // Raises d.hops to the hops from `from` to the farthest unit for which `counts` holds, searching only
  // the nodes of `pod` (kNoPod: all).
  auto farthest = [&](NodeId from, uint32_t pod, auto counts) {
    std::fill(dist.begin(), dist.end(), std::numeric_limits<uint32_t>::max());
    dist[from] = 0;
    q.push(from);
    while (!q.empty()) {
      NodeId n = q.front();
      q.pop();
      if (topo.node(n).kind == NodeKind::kUnit && counts(n)) d.hops = std::max(d.hops, dist[n]);
      for (auto [m, link] : topo.neighbours(n))
        if (dist[m] == std::numeric_limits<uint32_t>::max() && topo.active_at_start(link) &&
            (pod == kNoPod || topo.pod(m) == pod)) {
          dist[m] = dist[n] + 1;
          q.push(m);
        }
    }
  };
  for (uint64_t i = 0; i < units.size(); i += stride) {
    ++d.sources;
    const uint32_t pod = topo.pod(units[i]);
    // Routes inside a pod stay in it; only routes to other pods cross the data-centre network.
    farthest(units[i], kNoPod, [&](NodeId n) { return pod == kNoPod || topo.pod(n) != pod; });
    if (pod != kNoPod) farthest(units[i], pod, [](NodeId) { return true; });
  }
  return d;
}

core::ByteRate half_split_bandwidth(const Machine& machine) {
  const auto& topo = machine.topology;
  const auto& units = topo.units();
  if (units.size() < 2) return core::ByteRate(0.0);
  const size_t source = topo.nodes().size(), sink = source + 1;
  MaxFlow flow(topo.nodes().size() + 2);
  for (LinkId l = 0; l < topo.links().size(); ++l) {
    if (!topo.active_at_start(l)) continue;  // an optical circuit not set up yet
    const double bw = machine.link_bandwidth(l).value();
    flow.add_arc(topo.link(l).a, topo.link(l).b, bw);
    flow.add_arc(topo.link(l).b, topo.link(l).a, bw);
  }
  const double unlimited = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < units.size(); ++i) {
    if (i < units.size() / 2)
      flow.add_arc(source, units[i], unlimited);
    else
      flow.add_arc(units[i], sink, unlimited);
  }
  return core::ByteRate(flow.run(source, sink));
}

core::ByteRate injection_bandwidth(const Machine& machine, NodeId unit) {
  core::ByteRate total(0.0);
  for (auto [m, link] : machine.topology.neighbours(unit)) total += machine.link_bandwidth(link);
  return total;
}

TopologySummary summarize(const Machine& machine, uint64_t max_diameter_sources) {
  const auto& topo = machine.topology;
  TopologySummary s;
  s.units = topo.units().size();
  s.memory_pools = topo.memories().size();
  s.switches = topo.nodes().size() - s.units - s.memory_pools;
  s.links = topo.links().size();
  s.min_injection = core::ByteRate(std::numeric_limits<double>::infinity());
  for (NodeId u : topo.units()) {
    ++s.units_by_model[machine.unit_model(u).name()];
    auto inj = injection_bandwidth(machine, u);
    s.min_injection = std::min(s.min_injection, inj);
    s.max_injection = std::max(s.max_injection, inj);
  }
  s.diameter = unit_diameter(topo, max_diameter_sources);
  s.bisection = half_split_bandwidth(machine);
  return s;
}

}  // namespace zs::topology
