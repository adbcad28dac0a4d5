// The replay core both fidelities share: ops issued in dependency order, compute on SimGrid,
// point-to-point matching, collective instances and their schedules' bookkeeping, the result.
#include "engine/replay_core.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/op_duration.hpp"
#include "engine/engine_value_error.hpp"
#include "engine/op_jitter.hpp"
#include "policy/placement/trace_fit.hpp"
#include "topology/routing.hpp"

namespace zs::engine {
namespace {

using Interval = BusyTime::Interval;

/// The platform: the whole machine, or only the representatives' units (collapsed fidelity costs
/// communication itself).
SimgridBackend make_backend(const topology::Machine& m, const policy::Placement& p,
                            const std::vector<uint64_t>& representatives) {
  if (representatives.empty()) return SimgridBackend(m);
  std::vector<topology::NodeId> units;
  for (uint64_t r : representatives) units.push_back(p.unit_of_rank[r]);
  return SimgridBackend(m, units);
}

}  // namespace

ReplayCore::ReplayCore(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
                       const policy::CollectivePolicy& c, SimulatedRanks ranks)
    : machine(m),
      trace(t),
      placement(p),
      collective(c),
      simulated(std::move(ranks)),
      backend(make_backend(m, p, simulated.representatives)) {
  result.link_bytes.assign(2 * machine.topology.links().size(), 0.0);
  for (const auto& role : trace.roles) graphs.push_back(compile(role, trace.streams.size()));
  if (!simulated.representatives.empty()) {
    rank_of_slot = simulated.representatives;
    for (size_t i = 0; i < rank_of_slot.size(); ++i) slot_index.emplace(rank_of_slot[i], uint32_t(i));
  } else {
    rank_of_slot.resize(trace.mesh.size());
    for (uint64_t r = 0; r < rank_of_slot.size(); ++r) rank_of_slot[r] = r;
  }
  const size_t slots = rank_of_slot.size();
  role_of_rank.resize(slots);
  pending.resize(slots);
  op_start.resize(slots);
  coll_seq.assign(slots, {});
  busy.resize(slots);
  finish.assign(slots, 0.0);
  slowdown_of_slot.assign(slots, 1.0);
  for (auto [rank, factor] : simulated.slowdown) slowdown_of_slot[slot(rank)] = factor;
  ops_done.assign(slots, 0);
  communicating.assign(slots, 0);
  if (simulated.record_timeline) {
    timeline = std::make_shared<ReplayTimeline>();
    for (uint64_t r : rank_of_slot) timeline->unit_of_slot.push_back(placement.unit_of_rank[r]);
  }
  for (size_t i = 0; i < slots; ++i) {
    role_of_rank[i] = trace.role_of(rank_of_slot[i]);
    pending[i] = graphs[role_of_rank[i]].initial_pending;
    op_start[i].assign(pending[i].size(), 0.0);
    ops_total += pending[i].size();
  }
}

std::string ReplayCore::op_where(uint64_t rank, uint32_t op) const {
  return policy::op_path(role_of_rank[slot(rank)], op);
}

SimgridBackend::Token ReplayCore::new_token(const Activity& a) {
  if (!free_tokens.empty()) {
    auto t = free_tokens.back();
    free_tokens.pop_back();
    activities[t] = a;
    return t;
  }
  activities.push_back(a);
  return activities.size() - 1;
}

void ReplayCore::record_link_transfer(SimgridBackend::Token token, topology::NodeId src,
                                      const std::vector<topology::LinkId>& route, double bytes) {
  ReplayTimeline::LinkTransfer t{now(), now(), bytes, uint32_t(timeline->directions.size()),
                                 uint32_t(route.size())};
  topology::NodeId at = src;
  for (auto l : route) {
    const auto& link = machine.topology.links()[l];
    const bool forward = link.a == at;
    timeline->directions.push_back(uint32_t(2 * size_t(l) + (forward ? 0 : 1)));
    at = forward ? link.b : link.a;
  }
  open_link_transfer[token] = uint32_t(timeline->link_transfers.size());
  timeline->link_transfers.push_back(t);
}

void ReplayCore::start_op(uint64_t rank, uint32_t op) {
  const auto& o = program(rank).ops[op];
  op_start[slot(rank)][op] = now();
  if (const auto* c = std::get_if<workload::ComputeOp>(&o.body)) {
    start_compute(rank, op, *c);
  } else if (const auto* p = std::get_if<workload::P2POp>(&o.body)) {
    count_communication(rank, +1);
    post_p2p(rank, op, *p);
  } else if (const auto* m = std::get_if<workload::MemoryOp>(&o.body)) {
    const bool read = m->direction == workload::MemoryDirection::kRead;
    ++result.memory_activities;
    fidelity->start_memory_move(rank, m->bytes, read, {Kind::kOp, rank, op});
  } else {
    count_communication(rank, +1);
    join(rank, op, std::get<workload::CollectiveOp>(o.body));
  }
}

void ReplayCore::count_communication(uint64_t rank, int change) {
  uint32_t& count = communicating[slot(rank)];
  if (change < 0 && count == 0) throw std::logic_error("a communication op finished twice");
  count = change > 0 ? count + 1 : count - 1;
  if (count == (change > 0 ? 1u : 0u)) backend.set_communicating(placement.unit_of_rank[rank], count > 0);
}

double ReplayCore::jitter(uint64_t rank, uint32_t op) const {
  return op_jitter_factor(machine.op_jitter.cv, machine.op_jitter.seed, rank, op, simulated.stands_for);
}

void ReplayCore::start_compute(uint64_t rank, uint32_t op, const workload::ComputeOp& c) {
  auto unit = placement.unit_of_rank[rank];
  hw::ComputeWork work = work_of(c);
  if (c.scaled_by) {
    auto load = expert_load.find(load_key(rank, *c.scaled_by));
    if (load == expert_load.end())
      throw workload::trace_error(trace, op_where(rank, op) + "/scaled_by",
                                  "op \"" + program(rank).ops[op].name +
                                      "\" started before the dispatch it is scaled by completed " +
                                      "(add a dependency on it)");
    fidelity->scaled_compute_started(rank, *c.scaled_by, c);
    work.flops = work.flops * load->second;
    work.bytes = work.bytes * load->second;
  }
  auto duration =
      op_duration(machine.unit_model(unit), c, work) * slowdown_of_slot[slot(rank)] * jitter(rank, op);
  // The compute ops that can only follow this one (RoleGraph::fused_next) run in the same activity:
  // nothing else can start between them, so their times are the same and SimGrid handles fewer
  // activities. Their starts are recorded now; complete() finishes them in order.
  Activity a{Kind::kOp, rank, op};
  const auto& graph = graphs[role_of_rank[slot(rank)]];
  double end = now() + duration.value();
  for (uint32_t next = graph.fused_next[op]; next != RoleGraph::kNone; next = graph.fused_next[next]) {
    const auto& nc = std::get<workload::ComputeOp>(program(rank).ops[next].body);
    const auto next_duration =
        op_duration(machine.unit_model(unit), nc) * slowdown_of_slot[slot(rank)] * jitter(rank, next);
    op_start[slot(rank)][next] = end;
    end += next_duration.value();
    duration = duration + next_duration;
    ++a.chained;
  }
  ++result.compute_activities;
  backend.start_compute(unit, duration, new_token(a));
}

void ReplayCore::op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running) {
  const auto& o = program(rank).ops[op];
  Interval span{op_start[slot(rank)][op], end};
  BusyTime& b = busy[slot(rank)];
  auto& kind = std::holds_alternative<workload::ComputeOp>(o.body)  ? b.compute
               : std::holds_alternative<workload::MemoryOp>(o.body) ? b.memory
               : std::holds_alternative<workload::P2POp>(o.body)    ? b.p2p
                                                                    : b.collective;
  // A collective's time before its last member joined is waiting; the rest is communication.
  Interval moving = span;
  if (std::holds_alternative<workload::CollectiveOp>(o.body) && done_collective_joined > span.first) {
    moving.first = std::min(done_collective_joined, end);
    b.collective_wait.push_back({span.first, moving.first});
  }
  done_collective_joined = -1;
  kind.push_back(moving);
  if (timeline) {
    auto found = collective_of_op.find(load_key(rank, op));
    uint32_t coll = ReplayTimeline::kNone;
    if (found != collective_of_op.end()) {
      coll = found->second;
      collective_of_op.erase(found);
    }
    timeline->spans.push_back({uint32_t(slot(rank)), op, span.first, span.second, coll,
                               std::holds_alternative<workload::CollectiveOp>(o.body) ? moving.first : -1.0});
  }
  if (std::holds_alternative<workload::CollectiveOp>(o.body) ||
      std::holds_alternative<workload::P2POp>(o.body))
    count_communication(rank, -1);
  if (const auto* c = std::get_if<workload::CollectiveOp>(&o.body)) {
    const size_t comm = communicator_of(c->communicator);
    if (b.collective_by_communicator.size() <= comm) b.collective_by_communicator.resize(comm + 1);
    b.collective_by_communicator[comm].push_back(moving);
  }
  finish[slot(rank)] = std::max(finish[slot(rank)], span.second);
  ++ops_done[slot(rank)];
  ++ops_done_total;
  for (uint32_t s : graphs[role_of_rank[slot(rank)]].successors[op])
    if (--pending[slot(rank)][s] == 0 && s != running) start_op(rank, s);
}

void ReplayCore::post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p) {
  const auto peer = trace.peer_of(rank, p);
  std::string where = op_where(rank, op);
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
  if (timeline)
    timeline->pairs.push_back(
        {uint32_t(slot(pair->send.rank)), pair->send.op, uint32_t(slot(pair->recv.rank)), pair->recv.op});
  Activity a{Kind::kP2P, pair->send.rank, pair->send.op, 0, 0, pair->recv.rank, pair->recv.op, 0};
  fidelity->start_p2p(src, dst, sent.bytes, a);
}

size_t ReplayCore::communicator_of(const std::string& name) {
  auto found = communicator_index.find(name);
  if (found != communicator_index.end()) return found->second;
  communicator_groups.push_back(*trace.groups_of(name));
  return communicator_index[name] = communicator_groups.size() - 1;
}

void ReplayCore::join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c) {
  const size_t comm = communicator_of(c.communicator);
  const auto& groups = communicator_groups[comm];
  const auto group = groups.index(rank);
  if (!group)
    throw workload::trace_error(trace, op_where(rank, op),
                                "rank " + std::to_string(rank) + " issues " +
                                    std::string(workload::to_string(c.kind)) + " on \"" + c.communicator +
                                    "\", whose groups do not hold it");
  if (coll_seq[slot(rank)].size() <= comm) coll_seq[slot(rank)].resize(comm + 1, 0);
  const uint32_t seq = coll_seq[slot(rank)][comm]++;
  const auto key = std::make_tuple(comm, *group, seq);
  auto found = instance_by_key.find(key);
  uint32_t id =
      found != instance_by_key.end() ? found->second : fidelity->create_instance(key, rank, op, groups, c);
  Instance& inst = instances.at(id);
  if (timeline) collective_of_op[load_key(rank, op)] = id;
  if (inst.kind != c.kind || inst.bytes != c.bytes)
    throw workload::trace_error(
        trace, op_where(rank, op),
        "rank " + std::to_string(rank) + " issues " + std::string(workload::to_string(c.kind)) + " of " +
            core::to_string(c.bytes) + " as call " + std::to_string(seq) + " on \"" + c.communicator +
            "\", but its group issued " + std::string(workload::to_string(inst.kind)) + " of " +
            core::to_string(inst.bytes));
  if (inst.analytic) {
    fidelity->join_analytic(id, rank, op, groups, c);
    return;
  }
  const uint32_t m = groups.position(rank);
  inst.op_of_member[m] = op;
  inst.arrived[m] = true;
  inst.last_join = std::max(inst.last_join, now());
  if (inst.remaining_of_member[m] == 0) {
    member_done(id, m);
    return;
  }
  for (uint32_t t : inst.transfers_of_member[m]) try_start(id, t);
}

uint32_t ReplayCore::add_instance(Instance inst, const InstanceKey& key) {
  uint32_t id = next_instance++;
  if (timeline) timeline->collectives.push_back({inst.schedule.algorithm});
  instances.emplace(id, std::move(inst));
  instance_by_key.emplace(key, id);
  ++result.collectives;
  return id;
}

void ReplayCore::schedule_transfers(Instance& inst, uint64_t rank, uint32_t op,
                                    const workload::CommunicatorGroups& groups,
                                    const workload::CollectiveOp& c) {
  policy::CollectiveRequest request{c.kind, c.bytes, {}, &machine, {}};
  for (uint64_t r : inst.members) request.member_units.push_back(placement.unit_of_rank[r]);
  if (c.dispatch) {
    auto sizes =
        dispatch_draws.sizes(*c.dispatch, static_cast<uint32_t>(inst.members.size()), *groups.index(rank));
    request.peer_bytes = std::move(sizes.peer_bytes);
    inst.load_of_member = std::move(sizes.load_of_member);
  }
  try {
    inst.schedule = collective.schedule(request);
  } catch (const std::invalid_argument& e) {
    throw workload::trace_error(trace, op_where(rank, op),
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
  if (!machine.step_latency) return;
  inst.step_latency = step_latencies(inst.schedule, request.member_units);
  if (inst.schedule.transfers.empty()) return;
  const auto protocol = inst.schedule.transfers.front().protocol;
  inst.base_latency = policy::collective_base_latency(collective, request, protocol).value();
}

std::vector<double> ReplayCore::step_latencies(const policy::CollectiveSchedule& schedule,
                                               const std::vector<topology::NodeId>& units) {
  std::vector<double> sum(schedule.steps, 0.0), count(schedule.steps, 0.0);
  for (const auto& tr : schedule.transfers) {
    const auto src = policy::endpoint_node(machine, units, tr.src);
    const auto dst = policy::endpoint_node(machine, units, tr.dst);
    if (src == dst || tr.bytes.value() <= 0 || tr.pipelined) continue;
    if (tr.step >= sum.size()) {
      sum.resize(tr.step + 1, 0.0);
      count.resize(tr.step + 1, 0.0);
    }
    sum[tr.step] +=
        topology::route_step_latency(machine, backend.router().route(src, dst), tr.protocol, tr.algorithm)
            .value();
    count[tr.step] += 1;
  }
  for (size_t s = 0; s < sum.size(); ++s) sum[s] = count[s] > 0 ? sum[s] / count[s] : 0.0;
  return sum;
}

void ReplayCore::try_start(uint32_t id, uint32_t t) {
  Instance& inst = instances.at(id);
  const auto& tr = inst.schedule.transfers[t];
  const auto n = static_cast<uint32_t>(inst.members.size());
  auto joined = [&](uint32_t end) { return end >= n || inst.arrived[end]; };
  if (inst.started[t] || inst.pending_after[t] != 0 || !joined(tr.src) || !joined(tr.dst)) return;
  inst.started[t] = true;
  ++result.transfer_activities;
  const Activity a{Kind::kCollectiveTransfer, 0, 0, id, t, 0, 0, 0};
  fidelity->start_collective_transfer(inst, t, a);
}

void ReplayCore::transfer_done(uint32_t id, uint32_t t) {
  Instance& inst = instances.at(id);
  for (uint32_t s : inst.successors[t])
    if (--inst.pending_after[s] == 0) try_start(id, s);
  const auto& tr = inst.schedule.transfers[t];
  std::vector<uint32_t> finished_members;
  for (uint32_t end : {tr.src, tr.dst})
    if (end < inst.members.size() && --inst.remaining_of_member[end] == 0) finished_members.push_back(end);
  for (uint32_t member : finished_members) member_done(id, member);
}

void ReplayCore::member_done(uint32_t id, uint32_t m) {
  Instance& inst = instances.at(id);
  const uint64_t rank = inst.members[m];
  const uint32_t op = inst.op_of_member[m];
  if (!inst.load_of_member.empty()) expert_load[load_key(rank, op)] = inst.load_of_member[m];
  const double joined = inst.last_join;
  if (++inst.done_members == inst.members.size()) instances.erase(id);
  done_collective_joined = joined;
  op_done(rank, op);
}

void ReplayCore::on_complete(SimgridBackend::Token token) {
  Activity a = activities[token];
  free_tokens.push_back(token);
  if (simulated.progress != nullptr && (++completions & 4095) == 0)
    simulated.progress->report({double(ops_done_total), double(ops_total), "ops", now()});
  if (timeline && !open_link_transfer.empty()) {
    auto open = open_link_transfer.find(token);
    if (open != open_link_transfer.end()) {
      timeline->link_transfers[open->second].end = now();
      open_link_transfer.erase(open);
    }
  }
  complete(a);
}

void ReplayCore::complete(const Activity& a) {
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
    default:
      fidelity->complete(a);
      break;
  }
}

ReplayResult ReplayCore::run(ReplayFidelity& f) {
  fidelity = &f;
  start_initial_ops();
  backend.run([this](SimgridBackend::Token token) { on_complete(token); });
  check_every_op_ran();
  return take_result();
}

void ReplayCore::start_initial_ops() {
  for (size_t i = 0; i < rank_of_slot.size(); ++i)
    for (uint32_t op = 0; op < pending[i].size(); ++op)
      if (graphs[role_of_rank[i]].initial_pending[op] == 0) start_op(rank_of_slot[i], op);
}

void ReplayCore::check_every_op_ran() const {
  for (size_t i = 0; i < rank_of_slot.size(); ++i)
    if (ops_done[i] != trace.roles[role_of_rank[i]].ops.size())
      throw workload::trace_error(trace, "/roles/" + std::to_string(role_of_rank[i]),
                                  "deadlock: rank " + std::to_string(rank_of_slot[i]) + " completed " +
                                      std::to_string(ops_done[i]) + " of " +
                                      std::to_string(trace.roles[role_of_rank[i]].ops.size()) +
                                      " ops (a collective its group never issued?)");
}

ReplayResult ReplayCore::take_result() {
  ReplayResult out = std::move(result);
  const size_t slots = rank_of_slot.size();
  double t_end = 0;
  for (size_t i = 0; i < slots; ++i)
    if (checked_engine_value(finish[i], "rank " + std::to_string(rank_of_slot[i]) + "'s finish time (s)", 1e18) >
        t_end) {
      t_end = finish[i];
      out.critical_rank = rank_of_slot[i];
      out.critical_slot = i;
    }
  out.iteration_time = core::Seconds(t_end);
  out.ranks.resize(slots);
  for (size_t i = 0; i < slots; ++i) {
    out.ranks[i] = busy[i].breakdown(finish[i], t_end, communicator_index);
    out.ranks[i].rank = rank_of_slot[i];
    out.ranks[i].stands_for = simulated.stands_for;
  }
  out.collective_algorithms.assign(algorithms.begin(), algorithms.end());
  out.timeline = timeline;
  fidelity->finish(out);
  return out;
}

}  // namespace zs::engine
