// Bottleneck-link costs of concurrent transfers over cached fewest-hop routes.
#include "engine/collapsed/analytic_network.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "core/input_error.hpp"
#include "topology/routing.hpp"

namespace zs::engine {

AnalyticNetwork::AnalyticNetwork(const topology::Machine& machine, topology::Router& router)
    : machine_(machine), router_(router) {
  const size_t links = machine.topology.links().size();
  direction_bandwidth_.resize(2 * links);
  for (topology::LinkId l = 0; l < links; ++l)
    direction_bandwidth_[2 * l] = direction_bandwidth_[2 * l + 1] = machine.link_bandwidth(l).value();
  load_.assign(2 * links, 0.0);
  own_touched_.assign(2 * links, 0);
  node_sum_.assign(machine.topology.nodes().size(), 0.0);
}

void AnalyticNetwork::add_load(uint32_t direction, double bytes) {
  if (load_[direction] == 0) touched_.push_back(direction);
  load_[direction] += bytes;
}

AnalyticNetwork::StepCost AnalyticNetwork::fluid_step(
    const std::vector<Flow>& own, const std::vector<Flow>& others, double others_weight,
    std::vector<std::pair<uint32_t, double>>* link_bytes, double repeat,
    std::vector<std::pair<uint32_t, double>>* own_link_bytes) {
  // Destinations grouped by the neighbours they attach to, in order of first appearance.
  std::map<std::vector<topology::NodeId>, size_t> group_of_key;
  std::vector<topology::NodeId> grouped;  // destinations with an entry in group_of_node_
  // Adds up the entries of each node in a dense scratch array, in entry order (so the sums are
  // deterministic), and leaves one entry per node, sorted by node.
  auto merge = [this](std::vector<std::pair<topology::NodeId, double>>& v) {
    std::vector<topology::NodeId> nodes;
    for (const auto& [n, bytes] : v) {
      if (node_sum_[n] == 0) nodes.push_back(n);
      node_sum_[n] += bytes;
    }
    std::sort(nodes.begin(), nodes.end());
    v.clear();
    for (auto n : nodes) {
      v.emplace_back(n, node_sum_[n]);
      node_sum_[n] = 0;
    }
  };
  if (group_of_node_.size() != node_sum_.size()) group_of_node_.assign(node_sum_.size(), 0);
  size_t used = 0;  // fluid_groups_[0, used) are this step's
  auto group = [&](topology::NodeId dst) -> FluidGroup& {
    if (group_of_node_[dst] == 0) {
      auto [it, fresh] = group_of_key.emplace(router_.attachment_key(dst), used);
      if (fresh) {
        if (used == fluid_groups_.size()) fluid_groups_.emplace_back();
        auto& g = fluid_groups_[used++];
        g.own.clear();
        g.others.clear();
        g.received.clear();
      }
      group_of_node_[dst] = static_cast<uint32_t>(it->second + 1);
      grouped.push_back(dst);
    }
    return fluid_groups_[group_of_node_[dst] - 1];
  };
  for (const auto& f : own)
    if (f.src != f.dst && f.bytes > 0) {
      FluidGroup& g = group(f.dst);
      g.own.emplace_back(f.src, f.bytes);
      g.received.emplace_back(f.dst, f.bytes);
    }
  for (const auto& f : others)
    if (f.src != f.dst && f.bytes > 0) {
      FluidGroup& g = group(f.dst);
      g.others.emplace_back(f.src, f.bytes * others_weight);
      g.received.emplace_back(f.dst, f.bytes * others_weight);
    }
  const auto& links = machine_.topology.links();
  auto direction = [&](topology::LinkId l, topology::NodeId from) {
    return 2 * l + (links[l].a == from ? 0u : 1u);
  };
  for (topology::NodeId n : grouped) group_of_node_[n] = 0;
  for (size_t gi = 0; gi < used; ++gi) {
    FluidGroup& g = fluid_groups_[gi];
    merge(g.own);
    merge(g.others);
    merge(g.received);
    double total = 0;
    for (const auto& [dst, bytes] : g.received) total += bytes;
    std::vector<std::pair<topology::NodeId, double>> fractions;
    for (const auto& [dst, bytes] : g.received) fractions.emplace_back(dst, bytes / total);
    const auto& own_demand = g.own;
    const auto& other_demand = g.others;
    try {
      router_.spread(own_demand, fractions, [&](topology::LinkId l, topology::NodeId from, double bytes) {
        const uint32_t d = direction(l, from);
        add_load(d, bytes);
        own_touched_[d] = 1;
      });
      router_.spread(other_demand, fractions, [&](topology::LinkId l, topology::NodeId from, double bytes) {
        add_load(direction(l, from), bytes);
      });
    } catch (const std::invalid_argument& e) {
      throw core::InputError(machine_.name, "", std::string(e.what()) + " (the links between them are down)");
    }
  }
  StepCost cost;
  StepLatency latency;
  const size_t stride = std::max<size_t>(1, own.size() / 64);
  for (size_t i = 0; i < own.size(); i += stride)
    if (own[i].src != own[i].dst && own[i].bytes > 0) latency.add(route(own[i].src, own[i].dst), own[i]);
  cost.latency = latency.value();
  finish_step(cost, others_weight, link_bytes, repeat, own_link_bytes);
  return cost;
}

const AnalyticNetwork::CachedRoute& AnalyticNetwork::route(topology::NodeId src, topology::NodeId dst) {
  const uint64_t key = (uint64_t(src) << 32) | dst;
  if (auto it = route_index_.find(key); it != route_index_.end()) return routes_[it->second];
  CachedRoute r;
  std::vector<topology::LinkId> links;
  try {
    links = router_.route(src, dst);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(machine_.name, "", std::string(e.what()) + " (the links between them are down)");
  }
  r.directions = topology::route_directions(machine_.topology, src, links);
  r.latency = topology::route_latency(machine_, links).value();
  for (auto algorithm : {hw::LibraryAlgorithm::kRing, hw::LibraryAlgorithm::kTree})
    for (auto protocol : hw::kCollectiveProtocols)
      r.step_latency[Flow{0, 0, 0, false, protocol, algorithm}.step_kind()] =
          topology::route_step_latency(machine_, links, protocol, algorithm).value();
  route_index_.emplace(key, static_cast<uint32_t>(routes_.size()));
  routes_.push_back(std::move(r));
  return routes_.back();
}

AnalyticNetwork::StepCost AnalyticNetwork::step(const std::vector<Flow>& own, const std::vector<Flow>& others,
                                                double others_weight,
                                                std::vector<std::pair<uint32_t, double>>* link_bytes,
                                                double repeat,
                                                std::vector<std::pair<uint32_t, double>>* own_link_bytes,
                                                std::vector<StepCost>* per_own) {
  if (per_own != nullptr) per_own->clear();
  if (own.size() + others.size() > kFluidTransfers)
    return fluid_step(own, others, others_weight, link_bytes, repeat, own_link_bytes);
  StepCost cost;
  auto own_latency = [](const CachedRoute& r, const Flow& f) {
    return f.pipelined ? r.latency : r.transfer_latency(f);
  };
  auto add = [&](const Flow& f, double weight) {
    if (f.src == f.dst || f.bytes <= 0) return;
    for (uint32_t d : route(f.src, f.dst).directions) {
      if (load_[d] == 0) touched_.push_back(d);
      load_[d] += f.bytes * weight;
    }
  };
  for (const auto& f : own) add(f, 1.0);
  for (const auto& f : others) add(f, others_weight);
  if (per_own != nullptr) per_own->reserve(own.size());
  StepLatency latency;
  for (const auto& f : own) {
    if (f.src == f.dst || f.bytes <= 0) {
      if (per_own != nullptr)
        per_own->push_back({f.src == f.dst ? 0.0 : own_latency(route(f.src, f.dst), f), 0.0});
      continue;
    }
    const auto& r = route(f.src, f.dst);
    latency.add(r, f);
    double drain = 0;
    for (uint32_t d : r.directions) {
      drain = std::max(drain, load_[d] / direction_bandwidth_[d]);
      own_touched_[d] = 1;
    }
    cost.drain = std::max(cost.drain, drain);
    if (per_own != nullptr) per_own->push_back({own_latency(r, f), drain});
  }
  cost.latency = latency.value();
  finish_step(cost, others_weight, link_bytes, repeat, own_link_bytes);
  return cost;
}

void AnalyticNetwork::finish_step(StepCost& cost, double others_weight,
                                  std::vector<std::pair<uint32_t, double>>* link_bytes, double repeat,
                                  std::vector<std::pair<uint32_t, double>>* own_link_bytes) {
  for (uint32_t d : touched_) {
    double bytes = load_[d];
    // Only other copies cross it: a sampled copy stands for more copies where it shares links with the
    // own transfers, not on its own links, which carry that copy's bytes once.
    if (!own_touched_[d] && others_weight > 0) bytes /= others_weight;
    cost.drain = std::max(cost.drain, bytes / direction_bandwidth_[d]);
    if (link_bytes != nullptr) link_bytes->emplace_back(d, bytes * repeat);
    if (own_link_bytes != nullptr && own_touched_[d]) own_link_bytes->emplace_back(d, bytes * repeat);
    load_[d] = 0;
    own_touched_[d] = 0;
  }
  touched_.clear();
}

}  // namespace zs::engine
