// Communication costs of representative ranks and their concurrent copies.
#include "engine/collapsed/collapsed_costs.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/input_error.hpp"
#include "engine/collapsed/chained_schedule.hpp"
#include "engine/collapsed/concurrent_charges.hpp"

namespace zs::engine {

CollapsedCosts::CollapsedCosts(const topology::Machine& machine, const workload::Trace& trace,
                               const policy::Placement& placement, const policy::CollectivePolicy& collective,
                               const RankCollapse& collapse, topology::Router& router)
    : machine_(machine),
      trace_(trace),
      placement_(placement),
      collective_(collective),
      collapse_(collapse),
      network_(machine, router) {
  const size_t links = machine.topology.links().size();
  direction_bandwidth_.resize(2 * links);
  for (topology::LinkId l = 0; l < links; ++l)
    direction_bandwidth_[2 * l] = direction_bandwidth_[2 * l + 1] = machine.link_bandwidth(l).value();
}

double CollapsedCosts::sampled_copies(uint64_t count, std::vector<uint64_t>& copies) {
  copies.clear();
  if (count <= 1) return 0.0;
  const uint64_t others = count - 1;
  if (others <= kCopySample) {
    for (uint64_t c = 1; c < count; ++c) copies.push_back(c);
    return 1.0;
  }
  for (uint64_t i = 0; i < kCopySample; ++i) copies.push_back(1 + i * others / kCopySample);
  return double(others) / double(kCopySample);
}

std::vector<std::pair<uint32_t, double>> CollapsedCosts::shareable(
    std::vector<std::pair<uint32_t, double>> bytes, double seconds) const {
  std::sort(bytes.begin(), bytes.end());
  std::vector<std::pair<uint32_t, double>> out;
  for (const auto& [d, b] : bytes) {
    if (!out.empty() && out.back().first == d)
      out.back().second += b;
    else
      out.emplace_back(d, b);
  }
  // What ConcurrentCharges would not track anyway (a longer charge, an expert dispatch stretched by its
  // imbalance, only uses its directions less).
  std::erase_if(out, [&](const auto& e) {
    return e.second <
           ConcurrentCharges::kNegligibleUse * seconds * machine_.link_bandwidth(e.first / 2).value();
  });
  return out;
}

/// One transfer and its copies over every collapsed axis; `ends(src copy, dst copy)` gives a copy's
/// endpoints. With `slowest_copy`, the cost is the slowest of the representative's and its sampled
/// copies' own (each among all the others), so that copies whose routes differ from the representative's
/// (a memory pool out of service) are not lost in the collapse.
template <typename Ends>
const CollapsedCosts::Cost& CollapsedCosts::copied_flow(uint64_t src, uint64_t dst, core::Bytes bytes,
                                                        int tag, Ends ends, std::vector<double>& link_bytes,
                                                        bool slowest_copy, bool route_latency_only) {
  const auto own = ends(src, dst);
  // The same flow with and without its step latency are cached apart.
  const auto key = std::make_tuple(own.first, own.second, bytes.value(), 2 * tag + int(route_latency_only));
  auto found = flow_costs_.find(key);
  if (found == flow_costs_.end()) {
    const auto& axes = collapse_.collapsed_axes();
    std::vector<uint64_t> copies;
    const double weight = sampled_copies(collapse_.copy_count(axes), copies);
    std::vector<AnalyticNetwork::Flow> mine{{own.first, own.second, bytes.value(), route_latency_only}},
        others;
    for (uint64_t c : copies) {
      const auto e = ends(collapse_.copy_of(src, axes, c), collapse_.copy_of(dst, axes, c));
      others.push_back({e.first, e.second, bytes.value(), route_latency_only});
    }
    Cost cost;
    const bool sampled = weight > 1;
    std::vector<std::pair<uint32_t, double>> own_bytes;
    const auto step =
        network_.step(mine, others, weight, &cost.link_bytes, 1.0, sampled ? &own_bytes : nullptr);
    cost.latency = step.latency;
    cost.drain = step.drain;
    if (slowest_copy) {
      std::vector<AnalyticNetwork::Flow> copy(1), rest;
      for (size_t k = 0; k < others.size(); ++k) {
        copy[0] = others[k];
        rest = others;
        rest[k] = mine[0];
        const auto c = network_.step(copy, rest, weight);
        cost.drain = std::max(cost.drain, c.latency + c.drain - cost.latency);
      }
    }
    cost.shared_bytes =
        shareable(sampled ? std::move(own_bytes) : cost.link_bytes, cost.latency + cost.drain);
    found = flow_costs_.emplace(key, std::move(cost)).first;
    ++patterns_costed_;
  }
  for (const auto& [d, b] : found->second.link_bytes) link_bytes[d] += b;
  return found->second;
}

CollapsedCosts::Charge CollapsedCosts::p2p(uint64_t src, uint64_t dst, core::Bytes bytes,
                                           std::vector<double>& link_bytes) {
  const auto& units = placement_.unit_of_rank;
  const Cost& cost = copied_flow(
      src, dst, bytes, 0, [&](uint64_t s, uint64_t r) { return std::make_pair(units[s], units[r]); },
      link_bytes, false);
  return {cost.latency + cost.drain, cost.shared_bytes};
}

CollapsedCosts::Charge CollapsedCosts::collective_transfer(const std::vector<uint64_t>& members,
                                                           const policy::Transfer& transfer,
                                                           double step_latency,
                                                           std::vector<double>& link_bytes) {
  const auto n = static_cast<uint32_t>(members.size());
  const uint32_t src = transfer.src, dst = transfer.dst;
  const bool src_switch = src >= n, dst_switch = dst >= n;
  const auto& units = placement_.unit_of_rank;
  // A switch endpoint is the reducing switch next to its member's unit: endpoint 1 of that unit alone.
  auto node = [&](uint64_t rank, bool at_switch) {
    return at_switch ? policy::endpoint_node(machine_, {units[rank]}, 1) : units[rank];
  };
  const Cost& cost = copied_flow(
      members[src_switch ? src - n : src], members[dst_switch ? dst - n : dst], transfer.bytes, 0,
      [&](uint64_t s, uint64_t r) { return std::make_pair(node(s, src_switch), node(r, dst_switch)); },
      link_bytes, false, true);  // the route's latency only: the step's step latency is the floor below
  return {std::max(cost.latency, step_latency) + cost.drain, cost.shared_bytes};
}

CollapsedCosts::Charge CollapsedCosts::memory_move(uint64_t rank, core::Bytes bytes, bool read,
                                                   std::vector<double>& link_bytes) {
  const auto& pools = placement_.pool_of_rank;
  const auto& units = placement_.unit_of_rank;
  const Cost& cost = copied_flow(
      rank, rank, bytes, read ? 1 : 2,
      [&](uint64_t r, uint64_t) {
        return read ? std::make_pair(pools.at(r), units[r]) : std::make_pair(units[r], pools.at(r));
      },
      link_bytes, true);
  return {cost.latency + cost.drain, cost.shared_bytes};
}

CollapsedCosts::Cost CollapsedCosts::schedule_cost(uint64_t rank, const std::vector<size_t>& axes,
                                                   const workload::CollectiveOp& c,
                                                   const std::vector<std::vector<double>>* peer_bytes,
                                                   const std::string& where) {
  const auto members = trace_.mesh.group_members(rank, axes);
  policy::CollectiveRequest request{c.kind, c.bytes, {}, &machine_, {}};
  for (uint64_t r : members) request.member_units.push_back(placement_.unit_of_rank[r]);
  if (peer_bytes != nullptr) request.peer_bytes = *peer_bytes;
  std::pair<std::string, std::vector<policy::RepeatedStep>> steps;
  // A pairwise all-to-all's steps are distinct, and its members move from one to the next at their own
  // pace: up to kReplayedPairwiseMembers it is replayed on its whole schedule, dependencies included.
  std::optional<policy::CollectiveSchedule> replayed;
  try {
    steps = collective_.steps(request);
    if (collective_.members_advance_independently(request) && steps.second.size() > 1 &&
        members.size() <= kReplayedPairwiseMembers)
      replayed = collective_.schedule(request);
  } catch (const std::invalid_argument& e) {
    throw workload::trace_error(trace_, where,
                                "collective policy \"" + std::string(collective_.name()) + "\": " + e.what());
  }
  const auto copy_axes = collapse_.copy_axes(axes);
  std::vector<uint64_t> copies;
  const double weight = sampled_copies(collapse_.copy_count(copy_axes), copies);
  const bool sampled = weight > 1;
  std::vector<std::pair<uint32_t, double>> own_bytes;
  std::vector<std::vector<topology::NodeId>> copy_units(copies.size());
  for (size_t k = 0; k < copies.size(); ++k)
    for (uint64_t r : members)
      copy_units[k].push_back(placement_.unit_of_rank[collapse_.copy_of(r, copy_axes, copies[k])]);
  // The policy gives steps that repeat (the 2(n-1) steps of a ring) once, with their count.
  Cost cost;
  cost.algorithm = std::move(steps.first);
  // The collective library's fixed cost, paid before the first step (0 with the step latency off).
  const auto* first = steps.second.empty() || steps.second.front().transfers.empty()
                          ? nullptr
                          : &steps.second.front().transfers.front();
  const double base =
      first == nullptr ? 0.0 : policy::collective_base_latency(collective_, request, first->protocol).value();
  if (replayed) {
    replayed_schedule_cost(*replayed, request, copy_units, weight, sampled ? &own_bytes : nullptr, base,
                           cost);
    cost.shared_bytes =
        shareable(sampled ? std::move(own_bytes) : cost.link_bytes, cost.latency + cost.drain);
    ++patterns_costed_;
    return cost;
  }
  auto& own = own_flows_;
  auto& others = other_flows_;
  for (const auto& step : steps.second) {
    own.clear();
    others.clear();
    own.reserve(step.transfers.size());
    others.reserve(step.transfers.size() * copy_units.size());
    for (const auto& tr : step.transfers) {
      const auto& units = request.member_units;
      own.push_back({policy::endpoint_node(machine_, units, tr.src),
                     policy::endpoint_node(machine_, units, tr.dst), tr.bytes.value(), tr.pipelined,
                     tr.protocol, tr.algorithm});
      for (const auto& copy : copy_units)
        others.push_back({policy::endpoint_node(machine_, copy, tr.src),
                          policy::endpoint_node(machine_, copy, tr.dst), tr.bytes.value(), tr.pipelined,
                          tr.protocol, tr.algorithm});
    }
    const double repeat = step.repeat;
    const auto s =
        network_.step(own, others, weight, &cost.link_bytes, repeat, sampled ? &own_bytes : nullptr);
    cost.latency += s.latency * repeat;
    cost.drain += s.drain * repeat;
  }
  cost.latency += base;
  cost.shared_bytes = shareable(sampled ? std::move(own_bytes) : cost.link_bytes, cost.latency + cost.drain);
  ++patterns_costed_;
  return cost;
}

void CollapsedCosts::replayed_schedule_cost(const policy::CollectiveSchedule& schedule,
                                            const policy::CollectiveRequest& request,
                                            const std::vector<std::vector<topology::NodeId>>& copy_units,
                                            double weight,
                                            std::vector<std::pair<uint32_t, double>>* own_bytes, double base,
                                            Cost& cost) {
  const auto& transfers = schedule.transfers;
  auto& own = own_flows_;
  auto& others = other_flows_;
  const auto& units = request.member_units;
  auto add = [&](const policy::Transfer& tr) {
    own.push_back({policy::endpoint_node(machine_, units, tr.src),
                   policy::endpoint_node(machine_, units, tr.dst), tr.bytes.value(), tr.pipelined,
                   tr.protocol, tr.algorithm});
    for (const auto& copy : copy_units)
      others.push_back({policy::endpoint_node(machine_, copy, tr.src),
                        policy::endpoint_node(machine_, copy, tr.dst), tr.bytes.value(), tr.pipelined,
                        tr.protocol, tr.algorithm});
  };
  // The bytes each step puts on the links (for utilization and sharing), step by step as above.
  std::vector<std::vector<uint32_t>> by_step;
  for (uint32_t t = 0; t < transfers.size(); ++t) {
    if (by_step.size() <= transfers[t].step) by_step.resize(transfers[t].step + 1);
    by_step[transfers[t].step].push_back(t);
  }
  for (const auto& ids : by_step) {
    own.clear();
    others.clear();
    for (uint32_t t : ids) add(transfers[t]);
    network_.step(own, others, weight, &cost.link_bytes, 1.0, own_bytes);
  }
  // Each transfer alone with its copies, then all replayed with max-min sharing as their dependencies end.
  std::vector<ChainedTransfer> replayed(transfers.size());
  std::vector<std::pair<uint32_t, double>> alone_bytes;
  for (size_t t = 0; t < transfers.size(); ++t) {
    own.clear();
    others.clear();
    add(transfers[t]);
    alone_bytes.clear();
    const auto alone = network_.step(own, others, weight, &alone_bytes, 1.0, nullptr, &own_transfer_costs_);
    auto& r = replayed[t];
    r.latency = own_transfer_costs_.empty() ? alone.latency : own_transfer_costs_[0].latency;
    if (transfers[t].step == 0 && !transfers[t].pipelined) r.latency += base;
    r.seconds = alone.drain;
    r.link_bytes = alone_bytes;
    r.after = transfers[t].after;
  }
  const auto run = run_chained(replayed, direction_bandwidth_);
  cost.latency = run.latency;
  cost.drain = run.seconds - run.latency;
}

namespace {

/// Each link direction of `bytes` reversed ([2 l] <-> [2 l + 1]), kept in increasing order.
void reverse_directions(std::vector<std::pair<uint32_t, double>>& bytes) {
  for (auto& [d, b] : bytes) d ^= 1u;
  std::sort(bytes.begin(), bytes.end());
}

}  // namespace

workload::DispatchSizes CollapsedCosts::routing_of_call(const workload::ExpertDispatch& d, uint32_t n,
                                                        uint64_t group) {
  if (collapse_.every_rank_for_routing()) return every_rank_draws_.sizes(d, n, group);
  uint64_t mixed = d.seed * 0x9E3779B97F4A7C15ull + group;  // SplitMix64's finalizer
  mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ull;
  mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebull;
  const uint64_t index = (mixed ^ (mixed >> 31)) % kRoutingPool;
  const auto key = std::make_tuple(uint64_t(n), d.tokens, int(d.experts * 64 + d.top_k),
                                   d.bytes_per_token.value(), d.combine, index);
  auto found = pooled_draws_.find(key);
  if (found == pooled_draws_.end()) {
    auto drawn = d;
    drawn.seed = 0;
    found = pooled_draws_.emplace(key, workload::dispatch_sizes(drawn, n, index)).first;
  }
  return found->second;
}

CollapsedCosts::CollectiveCharge CollapsedCosts::collective(uint64_t rank, size_t comm,
                                                            const std::vector<size_t>& axes,
                                                            const workload::CollectiveOp& c,
                                                            const std::string& where,
                                                            std::vector<double>& link_bytes) {
  const uint64_t group = trace_.mesh.group_index(rank, axes);
  const auto n = static_cast<uint32_t>(trace_.mesh.group_size(axes));
  CollectiveCharge charge;
  Cost cost;
  if (RankCollapse::routed_per_call(c, n)) {
    // Small expert dispatch: this call's own routing draw, as in exact fidelity.
    auto sizes = routing_of_call(*c.dispatch, n, group);
    charge.load = std::move(sizes.load_of_member);
    cost = schedule_cost(rank, axes, c, &sizes.peer_bytes, where);
  } else {
    // Large expert dispatch: one routing draw per dispatch shape (the first call's) stands for every
    // layer and micro-batch; the schedule is costed with that draw's per-peer bytes. A combine (the
    // transpose) takes the dispatch's cost with every link direction reversed, which is exact where
    // the route from b to a is the reverse of a's to b (fluid ECMP over the equal next hops, in
    // the large steps these groups make); costing it again would double the time spent here.
    const workload::DispatchSizes* drawn = nullptr;
    if (c.dispatch) {
      auto d = *c.dispatch;
      d.combine = false;
      const auto shape =
          std::make_tuple(uint64_t(n), d.tokens, int(d.experts * 64 + d.top_k), d.bytes_per_token.value());
      auto found = dispatch_draws_.find(shape);
      if (found == dispatch_draws_.end())
        found = dispatch_draws_.emplace(shape, workload::dispatch_sizes(d, n, 0)).first;
      drawn = &found->second;
      charge.load = drawn->load_of_member;
    }
    const auto key = std::make_tuple(comm, group, int(c.kind), c.bytes.value());
    auto found = collective_costs_.find(key);
    if (found == collective_costs_.end()) {
      auto dispatch = c;
      if (dispatch.dispatch) dispatch.dispatch->combine = false;
      found =
          collective_costs_
              .emplace(key, schedule_cost(rank, axes, dispatch, drawn ? &drawn->peer_bytes : nullptr, where))
              .first;
    }
    const Cost& cached = found->second;
    cost.latency = cached.latency;
    cost.drain = cached.drain;
    cost.algorithm = cached.algorithm;
    cost.shared_bytes = cached.shared_bytes;
    const bool reverse = c.dispatch && c.dispatch->combine;
    if (reverse) reverse_directions(cost.shared_bytes);
    for (const auto& [d, b] : cached.link_bytes) link_bytes[reverse ? d ^ 1u : d] += b;
  }
  for (const auto& [d, b] : cost.link_bytes) link_bytes[d] += b;
  charge.seconds = cost.latency + cost.drain;
  charge.shared_bytes = std::move(cost.shared_bytes);
  charge.algorithm = cost.algorithm;
  return charge;
}

std::pair<CollapsedCosts::Charge, CollapsedCosts::Charge> CollapsedCosts::staggered_combine(
    uint64_t rank, const std::vector<size_t>& axes, const workload::CollectiveOp& c,
    const std::vector<bool>& late, const std::string& where) {
  const auto n = static_cast<uint32_t>(trace_.mesh.group_size(axes));
  auto sizes = routing_of_call(*c.dispatch, n, trace_.mesh.group_index(rank, axes));
  auto early_bytes = sizes.peer_bytes, late_bytes = sizes.peer_bytes;
  for (uint32_t s = 0; s < n; ++s)
    for (uint32_t d = 0; d < n; ++d) (late[s] || late[d] ? early_bytes : late_bytes)[s][d] = 0;
  const Cost early = schedule_cost(rank, axes, c, &early_bytes, where);
  const Cost later = schedule_cost(rank, axes, c, &late_bytes, where);
  return {Charge{early.latency + early.drain, early.shared_bytes},
          Charge{later.latency + later.drain, later.shared_bytes}};
}

}  // namespace zs::engine
