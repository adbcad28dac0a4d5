// Replay: per-rank dependency tracking, collective instances, SimGrid activities (exact fidelity, and
// what both fidelities share; collapsed fidelity's charges are in collapsed/replayer_collapsed.cpp).
#include "engine/replayer.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/input_error.hpp"
#include "engine/op_duration.hpp"
#include "engine/rank_slowdown.hpp"
#include "engine/replayer_state.hpp"
#include "engine/trace_fit.hpp"
#include "topology/unit_domains.hpp"

namespace zs::engine {
namespace {

using Interval = BusyTime::Interval;

/// The units collapsed fidelity computes on: its representatives'.
std::vector<topology::NodeId> representative_units(const policy::Placement& placement,
                                                   const RankCollapse& collapse) {
  std::vector<topology::NodeId> units;
  for (uint64_t r : collapse.representatives()) units.push_back(placement.unit_of_rank[r]);
  return units;
}

}  // namespace

Replayer::State::State(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
                       const policy::CollectivePolicy& c,
                       std::vector<topology::CircuitReconfiguration> reconfigurations,
                       const RankCollapse* collapsed)
    : machine(m),
      trace(t),
      placement(p),
      collective(c),
      collapse(collapsed),
      backend(collapsed == nullptr ? SimgridBackend(m)
                                   : SimgridBackend(m, representative_units(p, *collapsed))),
      circuits(m, std::move(reconfigurations)) {
  if (collapse != nullptr) {
    costs.emplace(m, t, p, c, *collapse, backend.router());
    std::vector<double> bandwidth(2 * m.topology.links().size());
    for (topology::LinkId l = 0; l < m.topology.links().size(); ++l)
      bandwidth[2 * l] = bandwidth[2 * l + 1] = m.link_bandwidth(l).value();
    sharing.emplace(std::move(bandwidth));
  }
}

SimgridBackend::Token Replayer::State::new_token(const Activity& a) {
  if (!free_tokens.empty()) {
    auto t = free_tokens.back();
    free_tokens.pop_back();
    activities[t] = a;
    return t;
  }
  activities.push_back(a);
  return activities.size() - 1;
}

void Replayer::State::start_op(uint64_t rank, uint32_t op) {
  const auto& o = program(rank).ops[op];
  op_start[slot(rank)][op] = now();
  if (const auto* c = std::get_if<workload::ComputeOp>(&o.body)) {
    auto unit = placement.unit_of_rank[rank];
    hw::ComputeWork work = work_of(*c);
    if (c->scaled_by) {
      auto load = expert_load.find(load_key(rank, *c->scaled_by));
      if (load == expert_load.end())
        throw workload::trace_error(trace, op_path(role_of_rank[slot(rank)], op) + "/scaled_by",
                                    "op \"" + o.name +
                                        "\" started before the dispatch it is scaled by completed " +
                                        "(add a dependency on it)");
      if (collapse != nullptr) add_expert_lag(rank, *c->scaled_by, *c);
      work.flops = work.flops * load->second;
      work.bytes = work.bytes * load->second;
    }
    auto duration = op_duration(machine.unit_model(unit), *c, work) * slowdown_of_slot[slot(rank)];
    // The compute ops that can only follow this one (RoleGraph::fused_next) run in the same activity:
    // nothing else can start between them, so their times are the same and SimGrid handles fewer
    // activities. Their starts are recorded now; on_complete finishes them in order.
    Activity a{Kind::kOp, rank, op};
    const auto& graph = graphs[role_of_rank[slot(rank)]];
    double end = now() + duration.value();
    for (uint32_t next = graph.fused_next[op]; next != RoleGraph::kNone; next = graph.fused_next[next]) {
      const auto& nc = std::get<workload::ComputeOp>(program(rank).ops[next].body);
      const auto next_duration = op_duration(machine.unit_model(unit), nc) * slowdown_of_slot[slot(rank)];
      op_start[slot(rank)][next] = end;
      end += next_duration.value();
      duration = duration + next_duration;
      ++a.chained;
    }
    ++result.compute_activities;
    backend.start_compute(unit, duration, new_token(a));
  } else if (const auto* p = std::get_if<workload::P2POp>(&o.body)) {
    post_p2p(rank, op, *p);
  } else if (const auto* m = std::get_if<workload::MemoryOp>(&o.body)) {
    auto unit = placement.unit_of_rank[rank], pool = placement.pool_of_rank.at(rank);
    bool read = m->direction == workload::MemoryDirection::kRead;
    ++result.memory_activities;
    if (collapse != nullptr) {
      start_charge(costs->memory_move(rank, m->bytes, read, result.link_bytes), {Kind::kOp, rank, op});
    } else {
      start_transfer(read ? pool : unit, read ? unit : pool, m->bytes, {Kind::kOp, rank, op});
    }
  } else {
    join(rank, op, std::get<workload::CollectiveOp>(o.body));
  }
}

void Replayer::State::count_link_bytes(topology::NodeId src, const std::vector<topology::LinkId>& route,
                                       double bytes) {
  topology::NodeId at = src;
  for (auto l : route) {
    const auto& link = machine.topology.links()[l];
    const bool forward = link.a == at;
    result.link_bytes[2 * size_t(l) + (forward ? 0 : 1)] += bytes;
    at = forward ? link.b : link.a;
  }
}

void Replayer::State::start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes,
                                     const Activity& a) {
  if (!circuits.empty()) circuits.advance(backend.now(), backend.router());
  std::vector<topology::LinkId> route;
  try {
    route = backend.router().route(src, dst);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(machine.name, "",
                           std::string(e.what()) + " at t = " + core::to_string(backend.now()) +
                               " (the links or optical circuits between them are down)");
  }
  const double ready = circuits.ready_at(route).value();
  if (ready <= now()) {
    count_link_bytes(src, route, bytes.value());
    backend.start_transfer(src, dst, bytes, new_token(a), route);
    return;
  }
  ++result.circuit_waits;
  uint32_t index;
  if (!free_held.empty()) {
    index = free_held.back();
    free_held.pop_back();
    held_transfers[index] = {src, dst, bytes, a};
  } else {
    index = static_cast<uint32_t>(held_transfers.size());
    held_transfers.push_back({src, dst, bytes, a});
  }
  Activity wait;
  wait.kind = Kind::kCircuitWait;
  wait.held = index;
  backend.start_timer(core::Seconds(ready - now()), new_token(wait));
}

void Replayer::State::op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running) {
  const auto& o = program(rank).ops[op];
  Interval span{op_start[slot(rank)][op], end};
  BusyTime& b = busy[slot(rank)];
  auto& kind = std::holds_alternative<workload::ComputeOp>(o.body)  ? b.compute
               : std::holds_alternative<workload::MemoryOp>(o.body) ? b.memory
               : std::holds_alternative<workload::P2POp>(o.body)    ? b.p2p
                                                                    : b.collective;
  kind.push_back(span);
  if (const auto* c = std::get_if<workload::CollectiveOp>(&o.body)) {
    const size_t comm = communicator_of(c->communicator);
    if (b.collective_by_communicator.size() <= comm) b.collective_by_communicator.resize(comm + 1);
    b.collective_by_communicator[comm].push_back(span);
  }
  finish[slot(rank)] = std::max(finish[slot(rank)], span.second);
  ++ops_done[slot(rank)];
  for (uint32_t s : graphs[role_of_rank[slot(rank)]].successors[op])
    if (--pending[slot(rank)][s] == 0 && s != running) start_op(rank, s);
}

void Replayer::State::post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p) {
  const size_t axis = *trace.mesh.axis_index(p.axis);
  auto peer = trace.mesh.neighbour(rank, axis, p.offset, p.wrap);
  std::string where = op_path(role_of_rank[slot(rank)], op);
  if (!peer)
    throw workload::trace_error(trace, where,
                                "rank " + std::to_string(rank) + " has no neighbour " +
                                    std::to_string(p.offset) + " along \"" + p.axis + "\"");
  const bool send = p.direction == workload::P2PDirection::kSend;
  const uint64_t src = send ? rank : *peer, dst = send ? *peer : rank;
  // The tag is the direction along the axis, as the sender sees it.
  const auto pair = p2p.post(src, dst, send ? p.offset : -p.offset, send, {rank, op});
  if (!pair) return;
  const auto& sent = std::get<workload::P2POp>(program(pair->send.rank).ops[pair->send.op].body);
  const auto& expected = std::get<workload::P2POp>(program(pair->recv.rank).ops[pair->recv.op].body);
  if (sent.bytes != expected.bytes)
    throw workload::trace_error(trace, where,
                                "rank " + std::to_string(src) + " sends " + core::to_string(sent.bytes) +
                                    " but rank " + std::to_string(dst) + " expects " +
                                    core::to_string(expected.bytes));
  ++result.p2p_activities;
  Activity a{Kind::kP2P, pair->send.rank, pair->send.op, 0, 0, pair->recv.rank, pair->recv.op, 0};
  if (collapse != nullptr) {
    start_charge(costs->p2p(src, dst, sent.bytes, result.link_bytes), a);
  } else {
    start_transfer(placement.unit_of_rank[src], placement.unit_of_rank[dst], sent.bytes, a);
  }
}

size_t Replayer::State::communicator_of(const std::string& name) {
  auto found = communicator_index.find(name);
  if (found != communicator_index.end()) return found->second;
  communicator_axes.push_back(*trace.communicator_axes(name));
  return communicator_index[name] = communicator_axes.size() - 1;
}

void Replayer::State::join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c) {
  const size_t comm = communicator_of(c.communicator);
  const auto& axes = communicator_axes[comm];
  if (coll_seq[slot(rank)].size() <= comm) coll_seq[slot(rank)].resize(comm + 1, 0);
  const uint32_t seq = coll_seq[slot(rank)][comm]++;
  const auto key = std::make_tuple(comm, trace.mesh.group_index(rank, axes), seq);
  auto found = instance_by_key.find(key);
  uint32_t id = found != instance_by_key.end() ? found->second : create_instance(key, rank, op, axes, c);
  Instance& inst = instances.at(id);
  if (inst.kind != c.kind || inst.bytes != c.bytes)
    throw workload::trace_error(
        trace, op_path(role_of_rank[slot(rank)], op),
        "rank " + std::to_string(rank) + " issues " + std::string(workload::to_string(c.kind)) + " of " +
            core::to_string(c.bytes) + " as call " + std::to_string(seq) + " on \"" + c.communicator +
            "\", but its group issued " + std::string(workload::to_string(inst.kind)) + " of " +
            core::to_string(inst.bytes));
  if (collapse != nullptr && !inst.transfer_level) {
    join_collapsed(id, rank, op, axes, c);
    return;
  }
  const uint32_t m = trace.mesh.position(rank, axes);
  inst.op_of_member[m] = op;
  inst.arrived[m] = true;
  if (inst.remaining_of_member[m] == 0) {
    member_done(id, m);
    return;
  }
  for (uint32_t t : inst.transfers_of_member[m]) try_start(id, t);
}

uint32_t Replayer::State::create_instance(const std::tuple<size_t, uint64_t, uint32_t>& key, uint64_t rank,
                                          uint32_t op, const std::vector<size_t>& axes,
                                          const workload::CollectiveOp& c) {
  Instance inst;
  inst.kind = c.kind;
  inst.bytes = c.bytes;
  if (collapse != nullptr) return create_collapsed_instance(std::move(inst), key, rank, op, axes, c);
  inst.members = trace.mesh.group_members(rank, axes);
  schedule_transfers(inst, rank, op, axes, c);
  return add_instance(std::move(inst), key);
}

uint32_t Replayer::State::add_instance(Instance inst, const std::tuple<size_t, uint64_t, uint32_t>& key) {
  uint32_t id = next_instance++;
  instances.emplace(id, std::move(inst));
  instance_by_key.emplace(key, id);
  ++result.collectives;
  return id;
}

void Replayer::State::schedule_transfers(Instance& inst, uint64_t rank, uint32_t op,
                                         const std::vector<size_t>& axes, const workload::CollectiveOp& c) {
  policy::CollectiveRequest request{c.kind, c.bytes, {}, &machine, {}};
  for (uint64_t r : inst.members) request.member_units.push_back(placement.unit_of_rank[r]);
  if (c.dispatch) {
    auto sizes = workload::dispatch_sizes(*c.dispatch, static_cast<uint32_t>(inst.members.size()),
                                          trace.mesh.group_index(rank, axes));
    request.peer_bytes = std::move(sizes.peer_bytes);
    inst.load_of_member = std::move(sizes.load_of_member);
  }
  try {
    inst.schedule = collective.schedule(request);
  } catch (const std::invalid_argument& e) {
    throw workload::trace_error(trace, op_path(role_of_rank[slot(rank)], op),
                                "collective policy \"" + std::string(collective.name()) + "\": " + e.what());
  }
  algorithms.insert(inst.schedule.algorithm);
  const size_t n = inst.members.size(), nt = inst.schedule.transfers.size();
  inst.op_of_member.assign(n, 0);
  inst.arrived.assign(n, false);
  inst.remaining_of_member.assign(n, 0);
  inst.transfers_of_member.assign(n, {});
  inst.pending_after.assign(nt, 0);
  inst.successors.assign(nt, {});
  inst.started.assign(nt, false);
  for (uint32_t t = 0; t < nt; ++t) {
    const auto& tr = inst.schedule.transfers[t];
    for (uint32_t a : tr.after) inst.successors.at(a).push_back(t);
    inst.pending_after[t] = static_cast<uint32_t>(tr.after.size());
    for (uint32_t end : {tr.src, tr.dst}) {
      if (end >= n) continue;  // an in-network switch, not a member
      inst.transfers_of_member.at(end).push_back(t);
      ++inst.remaining_of_member[end];
    }
  }
}

void Replayer::State::try_start(uint32_t id, uint32_t t) {
  Instance& inst = instances.at(id);
  const auto& tr = inst.schedule.transfers[t];
  const auto n = static_cast<uint32_t>(inst.members.size());
  auto joined = [&](uint32_t end) { return end >= n || inst.arrived[end]; };
  if (inst.started[t] || inst.pending_after[t] != 0 || !joined(tr.src) || !joined(tr.dst)) return;
  inst.started[t] = true;
  ++result.transfer_activities;
  const Activity a{Kind::kCollectiveTransfer, 0, 0, id, t, 0, 0, 0};
  if (collapse != nullptr) {
    start_charge(costs->collective_transfer(inst.members, tr.src, tr.dst, tr.bytes, result.link_bytes), a);
  } else {
    start_transfer(endpoint_node(inst, tr.src), endpoint_node(inst, tr.dst), tr.bytes, a);
  }
}

topology::NodeId Replayer::State::endpoint_node(const Instance& inst, uint32_t end) const {
  const auto n = static_cast<uint32_t>(inst.members.size());
  if (end < n) return placement.unit_of_rank[inst.members[end]];
  return *topology::reduction_switch(machine, placement.unit_of_rank[inst.members[end - n]]);
}

void Replayer::State::transfer_done(uint32_t id, uint32_t t) {
  Instance& inst = instances.at(id);
  for (uint32_t s : inst.successors[t])
    if (--inst.pending_after[s] == 0) try_start(id, s);
  const auto& tr = inst.schedule.transfers[t];
  std::vector<uint32_t> finished_members;
  for (uint32_t end : {tr.src, tr.dst})
    if (end < inst.members.size() && --inst.remaining_of_member[end] == 0) finished_members.push_back(end);
  for (uint32_t member : finished_members) member_done(id, member);
}

void Replayer::State::member_done(uint32_t id, uint32_t m) {
  Instance& inst = instances.at(id);
  const uint64_t rank = inst.members[m];
  const uint32_t op = inst.op_of_member[m];
  if (!inst.load_of_member.empty()) {
    expert_load[load_key(rank, op)] = inst.load_of_member[m];
    // Collapsed: the member runs its own expert's load; no hotter one to wait for.
    if (collapse != nullptr) expert_max_load[load_key(rank, op)] = inst.load_of_member[m];
  }
  if (++inst.done_members == inst.members.size()) instances.erase(id);
  op_done(rank, op);
}

void Replayer::State::on_complete(SimgridBackend::Token token) {
  Activity a = activities[token];
  free_tokens.push_back(token);
  complete(a);
}

void Replayer::State::complete(const Activity& a) {
  switch (a.kind) {
    case Kind::kCollectiveTransfer:
      transfer_done(a.instance, a.transfer);
      break;
    case Kind::kP2P:
      op_done(a.rank, a.op);
      op_done(a.peer_rank, a.peer_op);
      break;
    case Kind::kOp: {
      uint32_t op = a.op;
      for (uint32_t k = 0; k < a.chained; ++k) {
        const uint32_t next = graphs[role_of_rank[slot(a.rank)]].fused_next[op];
        op_done_at(a.rank, op, op_start[slot(a.rank)][next], next);
        op = next;
      }
      op_done(a.rank, op);
      break;
    }
    case Kind::kCollectiveTimer:
      collective_timer_done(a.instance);
      break;
    case Kind::kChargeTimer:
      charge_wake(a.transfer);
      break;
    case Kind::kCollectiveReady:
      start_collective_part(a.instance, a.transfer);
      break;
    case Kind::kCircuitWait: {
      HeldTransfer h = held_transfers[a.held];
      free_held.push_back(a.held);
      start_transfer(h.src, h.dst, h.bytes, h.activity);
      break;
    }
  }
}

Replayer::Replayer(const topology::Machine& machine, const workload::Trace& trace,
                   const policy::Placement& placement, const policy::CollectivePolicy& collective,
                   std::vector<topology::CircuitReconfiguration> reconfigurations,
                   const RankCollapse* collapse)
    : machine_(machine),
      trace_(trace),
      placement_(placement),
      collective_(collective),
      reconfigurations_(std::move(reconfigurations)),
      collapse_(collapse) {}

Replayer::~Replayer() = default;

ReplayResult Replayer::run() {
  check_trace_fits(machine_, trace_, placement_);
  if (collapse_ != nullptr && !reconfigurations_.empty())
    throw core::InputError(
        trace_.name, "",
        "collapsed fidelity does not model optical circuit reconfigurations during the run; "
        "use exact fidelity or drop the reconfigurations");
  State s(machine_, trace_, placement_, collective_, reconfigurations_, collapse_);
  s.result.link_bytes.assign(2 * machine_.topology.links().size(), 0.0);
  for (const auto& role : trace_.roles) s.graphs.push_back(compile(role, trace_.streams.size()));
  if (collapse_ != nullptr) {
    s.rank_of_slot = collapse_->representatives();
    for (size_t i = 0; i < s.rank_of_slot.size(); ++i) s.slot_index.emplace(s.rank_of_slot[i], uint32_t(i));
  } else {
    s.rank_of_slot.resize(trace_.mesh.size());
    for (uint64_t r = 0; r < s.rank_of_slot.size(); ++r) s.rank_of_slot[r] = r;
  }
  const size_t slots = s.rank_of_slot.size();
  s.role_of_rank.resize(slots);
  s.pending.resize(slots);
  s.op_start.resize(slots);
  s.coll_seq.assign(slots, {});
  s.busy.resize(slots);
  s.finish.assign(slots, 0.0);
  s.expert_lag.assign(slots, 0.0);
  s.member_lag.assign(slots, {});
  s.slowdown_of_slot.assign(slots, 1.0);
  for (auto [rank, factor] : slowdown_of_ranks(machine_, placement_, collapse_))
    s.slowdown_of_slot[s.slot(rank)] = factor;
  s.ops_done.assign(slots, 0);
  for (size_t i = 0; i < slots; ++i) {
    s.role_of_rank[i] = trace_.role_of(s.rank_of_slot[i]);
    s.pending[i] = s.graphs[s.role_of_rank[i]].initial_pending;
    s.op_start[i].assign(s.pending[i].size(), 0.0);
  }
  for (size_t i = 0; i < slots; ++i)
    for (uint32_t op = 0; op < s.pending[i].size(); ++op)
      if (s.graphs[s.role_of_rank[i]].initial_pending[op] == 0) s.start_op(s.rank_of_slot[i], op);

  s.backend.run([&s](SimgridBackend::Token token) { s.on_complete(token); });

  for (size_t i = 0; i < slots; ++i)
    if (s.ops_done[i] != s.trace.roles[s.role_of_rank[i]].ops.size())
      throw workload::trace_error(trace_, "/roles/" + std::to_string(s.role_of_rank[i]),
                                  "deadlock: rank " + std::to_string(s.rank_of_slot[i]) + " completed " +
                                      std::to_string(s.ops_done[i]) + " of " +
                                      std::to_string(s.trace.roles[s.role_of_rank[i]].ops.size()) +
                                      " ops (a collective its group never issued?)");

  ReplayResult& out = s.result;
  double t_end = 0;
  for (size_t i = 0; i < slots; ++i)
    if (s.finish[i] > t_end) {
      t_end = s.finish[i];
      out.critical_rank = s.rank_of_slot[i];
      out.critical_slot = i;
    }
  out.iteration_time = core::Seconds(t_end);
  out.ranks.resize(slots);
  const uint64_t stands_for = collapse_ != nullptr ? collapse_->multiplicity() : 1;
  for (size_t i = 0; i < slots; ++i) {
    out.ranks[i] = s.busy[i].breakdown(s.finish[i], t_end, s.communicator_index);
    out.ranks[i].rank = s.rank_of_slot[i];
    out.ranks[i].stands_for = stands_for;
  }
  out.collective_algorithms.assign(s.algorithms.begin(), s.algorithms.end());
  if (collapse_ != nullptr) {
    out.fidelity = core::Fidelity::kCollapsed;
    out.collapsed_axes = collapse_->collapsed_axis_names();
    out.every_rank_for_routing = collapse_->every_rank_for_routing();
    out.analytic_costs = s.costs->patterns_costed();
    out.routes_computed = s.costs->routes_computed();
    out.distance_maps = s.backend.router().trees_computed();
  }
  return out;
}

}  // namespace zs::engine
