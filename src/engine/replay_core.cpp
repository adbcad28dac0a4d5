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
    : machine_(m),
      trace_(t),
      placement_(p),
      collective_(c),
      simulated_(std::move(ranks)),
      backend_(make_backend(m, p, simulated_.representatives)) {
  result_.link_bytes.assign(2 * machine_.topology.links().size(), 0.0);
  for (const auto& role : trace_.roles) graphs_.push_back(compile(role, trace_.streams.size()));
  if (!simulated_.representatives.empty()) {
    rank_of_slot_ = simulated_.representatives;
    for (size_t i = 0; i < rank_of_slot_.size(); ++i) slot_index_.emplace(rank_of_slot_[i], uint32_t(i));
  } else {
    rank_of_slot_.resize(trace_.mesh.size());
    for (uint64_t r = 0; r < rank_of_slot_.size(); ++r) rank_of_slot_[r] = r;
  }
  const size_t slots = rank_of_slot_.size();
  role_of_rank_.resize(slots);
  pending_.resize(slots);
  op_start_.resize(slots);
  coll_seq_.assign(slots, {});
  busy_.resize(slots);
  finish_.assign(slots, 0.0);
  slowdown_of_slot_.assign(slots, 1.0);
  for (auto [rank, factor] : simulated_.slowdown) slowdown_of_slot_[slot(rank)] = factor;
  ops_done_.assign(slots, 0);
  communicating_.assign(slots, 0);
  if (simulated_.record_timeline) {
    timeline_ = std::make_shared<ReplayTimeline>();
    for (uint64_t r : rank_of_slot_) timeline_->unit_of_slot.push_back(placement_.unit_of_rank[r]);
  }
  for (size_t i = 0; i < slots; ++i) {
    role_of_rank_[i] = trace_.role_of(rank_of_slot_[i]);
    pending_[i] = graphs_[role_of_rank_[i]].initial_pending;
    op_start_[i].assign(pending_[i].size(), 0.0);
    ops_total_ += pending_[i].size();
  }
}

std::string ReplayCore::op_where(uint64_t rank, uint32_t op) const {
  return policy::op_path(role_of_rank_[slot(rank)], op);
}

SimgridBackend::Token ReplayCore::new_token(const Activity& a) {
  if (!free_tokens_.empty()) {
    auto t = free_tokens_.back();
    free_tokens_.pop_back();
    activities_[t] = a;
    return t;
  }
  activities_.push_back(a);
  return activities_.size() - 1;
}

void ReplayCore::record_link_transfer(SimgridBackend::Token token, topology::NodeId src,
                                      const std::vector<topology::LinkId>& route, double bytes) {
  ReplayTimeline::LinkTransfer t{now(), now(), bytes, uint32_t(timeline_->directions.size()),
                                 uint32_t(route.size())};
  topology::NodeId at = src;
  for (auto l : route) {
    const auto& link = machine_.topology.links()[l];
    const bool forward = link.a == at;
    timeline_->directions.push_back(uint32_t(2 * size_t(l) + (forward ? 0 : 1)));
    at = forward ? link.b : link.a;
  }
  open_link_transfer_[token] = uint32_t(timeline_->link_transfers.size());
  timeline_->link_transfers.push_back(t);
}

void ReplayCore::start_op(uint64_t rank, uint32_t op) {
  const auto& o = program(rank).ops[op];
  op_start_[slot(rank)][op] = now();
  if (const auto* c = std::get_if<workload::ComputeOp>(&o.body)) {
    start_compute(rank, op, *c);
  } else if (const auto* p = std::get_if<workload::P2POp>(&o.body)) {
    count_communication(rank, +1);
    post_p2p(rank, op, *p);
  } else if (const auto* m = std::get_if<workload::MemoryOp>(&o.body)) {
    const bool read = m->direction == workload::MemoryDirection::kRead;
    ++result_.memory_activities;
    fidelity_->start_memory_move(rank, m->bytes, read, {Kind::kOp, rank, op});
  } else {
    count_communication(rank, +1);
    join(rank, op, std::get<workload::CollectiveOp>(o.body));
  }
}

void ReplayCore::count_communication(uint64_t rank, int change) {
  uint32_t& count = communicating_[slot(rank)];
  if (change < 0 && count == 0) throw std::logic_error("a communication op finished twice");
  count = change > 0 ? count + 1 : count - 1;
  if (count == (change > 0 ? 1u : 0u)) backend_.set_communicating(placement_.unit_of_rank[rank], count > 0);
}

double ReplayCore::jitter(uint64_t rank, uint32_t op) const {
  return op_jitter_factor(machine_.op_jitter.cv, machine_.op_jitter.seed, rank, op, simulated_.stands_for);
}

void ReplayCore::start_compute(uint64_t rank, uint32_t op, const workload::ComputeOp& c) {
  auto unit = placement_.unit_of_rank[rank];
  hw::ComputeWork work = work_of(c);
  if (c.scaled_by) {
    auto load = expert_load_.find(load_key(rank, *c.scaled_by));
    if (load == expert_load_.end())
      throw workload::trace_error(trace_, op_where(rank, op) + "/scaled_by",
                                  "op \"" + program(rank).ops[op].name +
                                      "\" started before the dispatch it is scaled by completed " +
                                      "(add a dependency on it)");
    fidelity_->scaled_compute_started(rank, *c.scaled_by, c);
    work.flops = work.flops * load->second;
    work.bytes = work.bytes * load->second;
  }
  auto duration =
      op_duration(machine_.unit_model(unit), c, work) * slowdown_of_slot_[slot(rank)] * jitter(rank, op);
  // The compute ops that can only follow this one (RoleGraph::fused_next) run in the same activity:
  // nothing else can start between them, so their times are the same and SimGrid handles fewer
  // activities. Their starts are recorded now; complete() finishes them in order.
  Activity a{Kind::kOp, rank, op};
  const auto& graph = graphs_[role_of_rank_[slot(rank)]];
  double end = now() + duration.value();
  for (uint32_t next = graph.fused_next[op]; next != RoleGraph::kNone; next = graph.fused_next[next]) {
    const auto& nc = std::get<workload::ComputeOp>(program(rank).ops[next].body);
    const auto next_duration =
        op_duration(machine_.unit_model(unit), nc) * slowdown_of_slot_[slot(rank)] * jitter(rank, next);
    op_start_[slot(rank)][next] = end;
    end += next_duration.value();
    duration = duration + next_duration;
    ++a.chained;
  }
  ++result_.compute_activities;
  backend_.start_compute(unit, duration, new_token(a));
}

void ReplayCore::op_done_at(uint64_t rank, uint32_t op, double end, uint32_t running) {
  const auto& o = program(rank).ops[op];
  Interval span{op_start_[slot(rank)][op], end};
  BusyTime& b = busy_[slot(rank)];
  auto& kind = std::holds_alternative<workload::ComputeOp>(o.body)  ? b.compute
               : std::holds_alternative<workload::MemoryOp>(o.body) ? b.memory
               : std::holds_alternative<workload::P2POp>(o.body)    ? b.p2p
                                                                    : b.collective;
  // A collective's time before its last member joined is waiting; the rest is communication.
  Interval moving = span;
  if (std::holds_alternative<workload::CollectiveOp>(o.body) && done_collective_joined_ > span.first) {
    moving.first = std::min(done_collective_joined_, end);
    b.collective_wait.push_back({span.first, moving.first});
  }
  done_collective_joined_ = -1;
  kind.push_back(moving);
  if (timeline_) {
    auto found = collective_of_op_.find(load_key(rank, op));
    uint32_t coll = ReplayTimeline::kNone;
    if (found != collective_of_op_.end()) {
      coll = found->second;
      collective_of_op_.erase(found);
    }
    timeline_->spans.push_back(
        {uint32_t(slot(rank)), op, span.first, span.second, coll,
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
  finish_[slot(rank)] = std::max(finish_[slot(rank)], span.second);
  ++ops_done_[slot(rank)];
  ++ops_done_total_;
  for (uint32_t s : graphs_[role_of_rank_[slot(rank)]].successors[op])
    if (--pending_[slot(rank)][s] == 0 && s != running) start_op(rank, s);
}

void ReplayCore::post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p) {
  const auto peer = trace_.peer_of(rank, p);
  std::string where = op_where(rank, op);
  if (!peer)
    throw workload::trace_error(trace_, where,
                                "rank " + std::to_string(rank) + " has no neighbour " +
                                    std::to_string(p.offset) + " along \"" + p.axis + "\"");
  const bool send = p.direction == workload::P2PDirection::kSend;
  const uint64_t src = send ? rank : *peer, dst = send ? *peer : rank;
  // The tag is the direction along the axis, as the sender sees it.
  const auto pair = p2p_.post(src, dst, send ? p.offset : -p.offset, send, {rank, op});
  if (!pair) return;
  const auto& sent = std::get<workload::P2POp>(program(pair->send.rank).ops[pair->send.op].body);
  const auto& expected = std::get<workload::P2POp>(program(pair->recv.rank).ops[pair->recv.op].body);
  if (sent.bytes != expected.bytes)
    throw workload::trace_error(trace_, where,
                                "rank " + std::to_string(src) + " sends " + core::to_string(sent.bytes) +
                                    " but rank " + std::to_string(dst) + " expects " +
                                    core::to_string(expected.bytes));
  ++result_.p2p_activities;
  if (timeline_)
    timeline_->pairs.push_back(
        {uint32_t(slot(pair->send.rank)), pair->send.op, uint32_t(slot(pair->recv.rank)), pair->recv.op});
  Activity a{Kind::kP2P, pair->send.rank, pair->send.op, 0, 0, pair->recv.rank, pair->recv.op, 0};
  fidelity_->start_p2p(src, dst, sent.bytes, a);
}

size_t ReplayCore::communicator_of(const std::string& name) {
  auto found = communicator_index_.find(name);
  if (found != communicator_index_.end()) return found->second;
  communicator_groups_.push_back(*trace_.groups_of(name));
  return communicator_index_[name] = communicator_groups_.size() - 1;
}

void ReplayCore::join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c) {
  const size_t comm = communicator_of(c.communicator);
  const auto& groups = communicator_groups_[comm];
  const auto group = groups.index(rank);
  if (!group)
    throw workload::trace_error(trace_, op_where(rank, op),
                                "rank " + std::to_string(rank) + " issues " +
                                    std::string(workload::to_string(c.kind)) + " on \"" + c.communicator +
                                    "\", whose groups do not hold it");
  if (coll_seq_[slot(rank)].size() <= comm) coll_seq_[slot(rank)].resize(comm + 1, 0);
  const uint32_t seq = coll_seq_[slot(rank)][comm]++;
  const auto key = std::make_tuple(comm, *group, seq);
  auto found = instance_by_key_.find(key);
  uint32_t id =
      found != instance_by_key_.end() ? found->second : fidelity_->create_instance(key, rank, op, groups, c);
  Instance& inst = instances_.at(id);
  if (timeline_) collective_of_op_[load_key(rank, op)] = id;
  if (inst.kind != c.kind || inst.bytes != c.bytes)
    throw workload::trace_error(
        trace_, op_where(rank, op),
        "rank " + std::to_string(rank) + " issues " + std::string(workload::to_string(c.kind)) + " of " +
            core::to_string(c.bytes) + " as call " + std::to_string(seq) + " on \"" + c.communicator +
            "\", but its group issued " + std::string(workload::to_string(inst.kind)) + " of " +
            core::to_string(inst.bytes));
  if (inst.analytic) {
    fidelity_->join_analytic(id, rank, op, groups, c);
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
  uint32_t id = next_instance_++;
  if (timeline_) timeline_->collectives.push_back({inst.schedule.algorithm});
  instances_.emplace(id, std::move(inst));
  instance_by_key_.emplace(key, id);
  ++result_.collectives;
  return id;
}

void ReplayCore::schedule_transfers(Instance& inst, uint64_t rank, uint32_t op,
                                    const workload::CommunicatorGroups& groups,
                                    const workload::CollectiveOp& c) {
  policy::CollectiveRequest request{c.kind, c.bytes, {}, &machine_, {}};
  for (uint64_t r : inst.members) request.member_units.push_back(placement_.unit_of_rank[r]);
  if (c.dispatch) {
    auto sizes =
        dispatch_draws_.sizes(*c.dispatch, static_cast<uint32_t>(inst.members.size()), *groups.index(rank));
    request.peer_bytes = std::move(sizes.peer_bytes);
    inst.load_of_member = std::move(sizes.load_of_member);
  }
  try {
    inst.schedule = collective_.schedule(request);
  } catch (const std::invalid_argument& e) {
    throw workload::trace_error(trace_, op_where(rank, op),
                                "collective policy \"" + std::string(collective_.name()) + "\": " + e.what());
  }
  algorithms_.insert(inst.schedule.algorithm);
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
  if (!machine_.step_latency) return;
  inst.step_latency = step_latencies(inst.schedule, request.member_units);
  if (inst.schedule.transfers.empty()) return;
  const auto protocol = inst.schedule.transfers.front().protocol;
  inst.base_latency = policy::collective_base_latency(collective_, request, protocol).value();
}

std::vector<double> ReplayCore::step_latencies(const policy::CollectiveSchedule& schedule,
                                               const std::vector<topology::NodeId>& units) {
  std::vector<double> sum(schedule.steps, 0.0), count(schedule.steps, 0.0);
  for (const auto& tr : schedule.transfers) {
    const auto src = policy::endpoint_node(machine_, units, tr.src);
    const auto dst = policy::endpoint_node(machine_, units, tr.dst);
    if (src == dst || tr.bytes.value() <= 0 || tr.pipelined) continue;
    if (tr.step >= sum.size()) {
      sum.resize(tr.step + 1, 0.0);
      count.resize(tr.step + 1, 0.0);
    }
    sum[tr.step] +=
        topology::route_step_latency(machine_, backend_.router().route(src, dst), tr.protocol, tr.algorithm)
            .value();
    count[tr.step] += 1;
  }
  for (size_t s = 0; s < sum.size(); ++s) sum[s] = count[s] > 0 ? sum[s] / count[s] : 0.0;
  return sum;
}

void ReplayCore::try_start(uint32_t id, uint32_t t) {
  Instance& inst = instances_.at(id);
  const auto& tr = inst.schedule.transfers[t];
  const auto n = static_cast<uint32_t>(inst.members.size());
  auto joined = [&](uint32_t end) { return end >= n || inst.arrived[end]; };
  if (inst.started[t] || inst.pending_after[t] != 0 || !joined(tr.src) || !joined(tr.dst)) return;
  inst.started[t] = true;
  ++result_.transfer_activities;
  const Activity a{Kind::kCollectiveTransfer, 0, 0, id, t, 0, 0, 0};
  fidelity_->start_collective_transfer(inst, t, a);
}

void ReplayCore::transfer_done(uint32_t id, uint32_t t) {
  Instance& inst = instances_.at(id);
  for (uint32_t s : inst.successors[t])
    if (--inst.pending_after[s] == 0) try_start(id, s);
  const auto& tr = inst.schedule.transfers[t];
  std::vector<uint32_t> finished_members;
  for (uint32_t end : {tr.src, tr.dst})
    if (end < inst.members.size() && --inst.remaining_of_member[end] == 0) finished_members.push_back(end);
  for (uint32_t member : finished_members) member_done(id, member);
}

void ReplayCore::member_done(uint32_t id, uint32_t m) {
  Instance& inst = instances_.at(id);
  const uint64_t rank = inst.members[m];
  const uint32_t op = inst.op_of_member[m];
  if (!inst.load_of_member.empty()) expert_load_[load_key(rank, op)] = inst.load_of_member[m];
  const double joined = inst.last_join;
  if (++inst.done_members == inst.members.size()) instances_.erase(id);
  collective_op_done(rank, op, joined);
}

void ReplayCore::collective_op_done(uint64_t rank, uint32_t op, double joined) {
  done_collective_joined_ = joined;
  op_done(rank, op);
}

ReplayCore::Instance ReplayCore::take_instance(uint32_t id) {
  auto found = instances_.find(id);
  Instance inst = std::move(found->second);
  instances_.erase(found);
  return inst;
}

void ReplayCore::on_complete(SimgridBackend::Token token) {
  Activity a = activities_[token];
  free_tokens_.push_back(token);
  if (simulated_.progress != nullptr && (++completions_ & 4095) == 0)
    simulated_.progress->report({double(ops_done_total_), double(ops_total_), "ops", now()});
  if (timeline_ && !open_link_transfer_.empty()) {
    auto open = open_link_transfer_.find(token);
    if (open != open_link_transfer_.end()) {
      timeline_->link_transfers[open->second].end = now();
      open_link_transfer_.erase(open);
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
        const uint32_t next = graphs_[role_of_rank_[slot(a.rank)]].fused_next[op];
        op_done_at(a.rank, op, op_start_[slot(a.rank)][next], next);
        op = next;
      }
      op_done(a.rank, op);
      break;
    }
    default:
      fidelity_->complete(a);
      break;
  }
}

ReplayResult ReplayCore::run(ReplayFidelity& f) {
  fidelity_ = &f;
  start_initial_ops();
  backend_.run([this](SimgridBackend::Token token) { on_complete(token); });
  check_every_op_ran();
  return take_result();
}

void ReplayCore::start_initial_ops() {
  for (size_t i = 0; i < rank_of_slot_.size(); ++i)
    for (uint32_t op = 0; op < pending_[i].size(); ++op)
      if (graphs_[role_of_rank_[i]].initial_pending[op] == 0) start_op(rank_of_slot_[i], op);
}

void ReplayCore::check_every_op_ran() const {
  for (size_t i = 0; i < rank_of_slot_.size(); ++i)
    if (ops_done_[i] != trace_.roles[role_of_rank_[i]].ops.size())
      throw workload::trace_error(trace_, "/roles/" + std::to_string(role_of_rank_[i]),
                                  "deadlock: rank " + std::to_string(rank_of_slot_[i]) + " completed " +
                                      std::to_string(ops_done_[i]) + " of " +
                                      std::to_string(trace_.roles[role_of_rank_[i]].ops.size()) +
                                      " ops (a collective its group never issued?)");
}

ReplayResult ReplayCore::take_result() {
  ReplayResult out = std::move(result_);
  const size_t slots = rank_of_slot_.size();
  double t_end = 0;
  for (size_t i = 0; i < slots; ++i)
    if (checked_engine_value(finish_[i], "rank " + std::to_string(rank_of_slot_[i]) + "'s finish time (s)",
                             1e18) > t_end) {
      t_end = finish_[i];
      out.critical_rank = rank_of_slot_[i];
      out.critical_slot = i;
    }
  out.iteration_time = core::Seconds(t_end);
  out.ranks.resize(slots);
  for (size_t i = 0; i < slots; ++i) {
    out.ranks[i] = busy_[i].breakdown(finish_[i], t_end, communicator_index_);
    out.ranks[i].rank = rank_of_slot_[i];
    out.ranks[i].stands_for = simulated_.stands_for;
  }
  out.collective_algorithms.assign(algorithms_.begin(), algorithms_.end());
  out.timeline = timeline_;
  fidelity_->finish(out);
  return out;
}

}  // namespace zs::engine
