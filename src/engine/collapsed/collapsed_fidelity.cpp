// Collapsed fidelity: representatives' collectives, point-to-point transfers and memory moves become
// analytic charges that share link directions while in flight (ConcurrentCharges).
#include "engine/collapsed/collapsed_fidelity.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "engine/op_duration.hpp"

namespace zs::engine {
namespace {

/// Both directions of every link at its bandwidth, B/s.
std::vector<double> direction_bandwidth(const topology::Machine& m) {
  std::vector<double> bandwidth(2 * m.topology.links().size());
  for (topology::LinkId l = 0; l < m.topology.links().size(); ++l)
    bandwidth[2 * l] = bandwidth[2 * l + 1] = m.link_bandwidth(l).value();
  return bandwidth;
}

}  // namespace

CollapsedFidelity::CollapsedFidelity(ReplayCore& core, const RankCollapse& collapse)
    : core_(core),
      collapse_(collapse),
      costs_(core.machine(), core.trace(), core.placement(), core.collective(), collapse,
             core.backend().router()),
      sharing_(direction_bandwidth(core.machine())),
      expert_lag_(core.slots(), 0.0),
      member_lag_(core.slots()) {}

void CollapsedFidelity::start_memory_move(uint64_t rank, core::Bytes bytes, bool read,
                                          const ReplayActivity& done) {
  start_charge(costs_.memory_move(rank, bytes, read, core_.link_bytes()), done);
}

void CollapsedFidelity::start_p2p(uint64_t src, uint64_t dst, core::Bytes bytes, const ReplayActivity& done) {
  start_charge(costs_.p2p(src, dst, bytes, core_.link_bytes()), done);
}

void CollapsedFidelity::start_collective_transfer(const CollectiveInstance& inst, uint32_t t,
                                                  const ReplayActivity& done) {
  const auto& tr = inst.schedule.transfers[t];
  // As in exact fidelity: a pipelined chunk pays its route's latency, the others their step's mean.
  const double step_latency = tr.pipelined || inst.step_latency.empty() ? 0.0 : inst.step_latency[tr.step];
  auto charge = costs_.collective_transfer(inst.members, tr, step_latency, core_.link_bytes());
  if (tr.step == 0 && !tr.pipelined) charge.seconds += inst.base_latency;  // the library's fixed cost
  start_charge(std::move(charge), done);
}

void CollapsedFidelity::complete(const ReplayActivity& a) {
  switch (a.kind) {
    case ReplayActivity::Kind::kCollectiveTimer:
      collective_timer_done(a.instance);
      break;
    case ReplayActivity::Kind::kChargeTimer:
      charge_wake(a.transfer);
      break;
    case ReplayActivity::Kind::kCollectiveReady:
      start_collective_part(a.instance, a.transfer);
      break;
    default:
      throw std::logic_error("collapsed fidelity started no activity of this kind");
  }
}

void CollapsedFidelity::finish(ReplayResult& out) const {
  out.fidelity = core::Fidelity::kCollapsed;
  out.collapsed_axes = collapse_.collapsed_axis_names();
  out.every_rank_for_routing = collapse_.every_rank_for_routing();
  out.analytic_costs = costs_.patterns_costed();
  out.routes_computed = costs_.routes_computed();
  out.distance_maps = core_.backend().router().trees_computed();
}

void CollapsedFidelity::scaled_compute_started(uint64_t rank, uint32_t dispatch,
                                               const workload::ComputeOp& c) {
  const auto& model = core_.machine().unit_model(core_.placement().unit_of_rank[rank]);
  const hw::ComputeWork nominal = work_of(c);
  auto time_at = [&](double load) {
    hw::ComputeWork w = nominal;
    w.flops = w.flops * load;
    w.bytes = w.bytes * load;
    return model.compute_time(w).value();
  };
  const uint64_t key = ReplayCore::load_key(rank, dispatch);
  const double own = time_at(core_.expert_load(rank, dispatch));
  // A dispatch run transfer by transfer records no group maximum: each member runs its own load.
  const auto max_load = expert_max_load_.find(key);
  expert_lag_[core_.slot(rank)] +=
      (max_load != expert_max_load_.end() ? time_at(max_load->second) : own) - own;
  if (auto group = expert_group_load_.find(key); group != expert_group_load_.end()) {
    auto& lag = member_lag_[core_.slot(rank)];
    lag.resize(group->second.size(), 0.0);
    for (size_t m = 0; m < lag.size(); ++m) lag[m] += time_at(group->second[m]) - own;
  }
}

void CollapsedFidelity::join_analytic(uint32_t id, uint64_t rank, uint32_t op,
                                      const workload::CommunicatorGroups& groups,
                                      const workload::CollectiveOp& c) {
  const auto& axes = groups.axes();  // collapsed fidelity runs meshes only
  CollectiveInstance& inst = core_.instance(id);
  const auto it = std::find(inst.members.begin(), inst.members.end(), rank);
  const auto m = static_cast<uint32_t>(it - inst.members.begin());
  inst.op_of_member[m] = op;
  inst.arrived[m] = true;
  double ready = core_.now();
  if (c.dispatch && c.dispatch->combine) {
    ready += expert_lag_[core_.slot(rank)];
    expert_lag_[core_.slot(rank)] = 0;
    auto& lag = member_lag_[core_.slot(rank)];
    if (!lag.empty()) {
      if (inst.member_ready.empty()) inst.member_ready.assign(lag.size(), 0.0);
      for (size_t k = 0; k < lag.size(); ++k)
        inst.member_ready[k] = std::max(inst.member_ready[k], core_.now() + lag[k]);
      lag.clear();
    }
  }
  inst.ready_at = std::max(inst.ready_at, ready);
  if (++inst.arrived_members == inst.members.size()) start_collective_parts(id, rank, op, axes, c);
}

uint32_t CollapsedFidelity::create_instance(const InstanceKey& key, uint64_t rank, uint32_t op,
                                            const workload::CommunicatorGroups& groups,
                                            const workload::CollectiveOp& c) {
  const auto& axes = groups.axes();  // collapsed fidelity runs meshes only
  CollectiveInstance inst;
  inst.kind = c.kind;
  inst.bytes = c.bytes;
  inst.members = collapse_.representatives_in_group(rank, axes);
  const uint64_t group_size = core_.trace().mesh.group_size(axes);
  if (inst.members.size() == group_size && inst.members.size() <= RankCollapse::kTransferLevelMembers) {
    // Every member is simulated: run the schedule's transfers as charges, each as its members join.
    core_.count_transfer_level_collective();
    core_.schedule_transfers(inst, rank, op, groups, c);
    return core_.add_instance(std::move(inst), key);
  }
  inst.analytic = true;
  auto charge =
      costs_.collective(rank, std::get<0>(key), axes, c, core_.op_where(rank, op), core_.link_bytes());
  core_.note_algorithm(charge.algorithm);
  inst.schedule.algorithm = charge.algorithm;
  inst.duration = charge.seconds;
  inst.shared_bytes = std::move(charge.shared_bytes);
  if (c.dispatch && !c.dispatch->combine && RankCollapse::routed_per_call(c, group_size))
    inst.group_load = charge.load;
  if (c.dispatch) {
    inst.max_load = *std::max_element(charge.load.begin(), charge.load.end());
    for (uint64_t r : inst.members)
      inst.load_of_member.push_back(charge.load[core_.trace().mesh.position(r, axes)]);
  }
  inst.op_of_member.assign(inst.members.size(), 0);
  inst.arrived.assign(inst.members.size(), false);
  return core_.add_instance(std::move(inst), key);
}

void CollapsedFidelity::start_charge(const CollapsedCosts::Charge& charge, const ReplayActivity& payload) {
  if (!(charge.seconds > 0)) {
    core_.backend().start_timer(core::Seconds(0), core_.new_token(payload));
    return;
  }
  const auto id = sharing_.start(core_.now(), charge.seconds, charge.shared_bytes);
  if (charge_payload_.size() <= id) charge_payload_.resize(id + 1);
  charge_payload_[id] = payload;
  set_charge_timers();
}

void CollapsedFidelity::set_charge_timers() {
  queue_changed_charges();
  arm_charge_wake();
}

void CollapsedFidelity::queue_changed_charges() {
  for (auto id : sharing_.changed()) charges_due_.push({sharing_.finish(id), id, sharing_.version(id)});
}

bool CollapsedFidelity::stale(const ChargeDue& due) const {
  return !sharing_.active(due.id) || sharing_.version(due.id) != due.version;
}

void CollapsedFidelity::arm_charge_wake() {
  while (!charges_due_.empty() && stale(charges_due_.top())) charges_due_.pop();
  if (charges_due_.empty() || !(charges_due_.top().finish < charge_wake_at_)) return;
  charge_wake_at_ = charges_due_.top().finish;
  ReplayActivity wake;
  wake.kind = ReplayActivity::Kind::kChargeTimer;
  wake.transfer = ++charge_wake_arms_;
  core_.backend().start_timer(core::Seconds(std::max(0.0, charge_wake_at_ - core_.now())),
                              core_.new_token(wake));
}

void CollapsedFidelity::charge_wake(uint32_t arm) {
  const double t = core_.now();
  // Due: finish times up to now, and up to the time the current timer was armed for (SimGrid may fire
  // it a rounding early).
  double due_by = t + 1e-12 * std::max(1.0, t);
  if (arm == charge_wake_arms_) {
    due_by = std::max(due_by, charge_wake_at_);
    charge_wake_at_ = std::numeric_limits<double>::infinity();
  }
  while (!charges_due_.empty()) {
    const ChargeDue due = charges_due_.top();
    if (stale(due)) {
      charges_due_.pop();
      continue;
    }
    if (due.finish > due_by) break;
    charges_due_.pop();
    const ReplayActivity payload = charge_payload_[due.id];
    sharing_.end(due.id, t);
    queue_changed_charges();
    core_.complete(payload);
  }
  arm_charge_wake();
}

void CollapsedFidelity::start_collective_parts(uint32_t id, uint64_t rank, uint32_t op,
                                               const std::vector<size_t>& axes,
                                               const workload::CollectiveOp& c) {
  CollectiveInstance& inst = core_.instance(id);
  inst.parts.clear();
  if (!inst.member_ready.empty()) {
    const double last = *std::max_element(inst.member_ready.begin(), inst.member_ready.end());
    // Members within 1% of the collective's own time of the last join count as late.
    const double tolerance = 0.01 * inst.duration;
    std::vector<bool> late(inst.member_ready.size());
    double early_ready = -1;
    for (size_t k = 0; k < late.size(); ++k) {
      late[k] = inst.member_ready[k] >= last - tolerance;
      if (!late[k]) early_ready = std::max(early_ready, inst.member_ready[k]);
    }
    if (early_ready >= 0) {
      auto [early, later] = costs_.staggered_combine(rank, axes, c, late, core_.op_where(rank, op));
      inst.parts.push_back({early_ready, early.seconds, std::move(early.shared_bytes)});
      inst.parts.push_back({std::max(last, inst.ready_at), later.seconds, std::move(later.shared_bytes)});
    }
  }
  if (inst.parts.empty()) inst.parts.push_back({inst.ready_at, inst.duration, std::move(inst.shared_bytes)});
  inst.last_join = inst.parts.front().start;  // the members wait until the cost starts
  inst.parts_left = static_cast<uint32_t>(inst.parts.size());
  for (uint32_t k = 0; k < inst.parts.size(); ++k) {
    if (inst.parts[k].start > core_.now()) {
      ReplayActivity timer;
      timer.kind = ReplayActivity::Kind::kCollectiveReady;
      timer.instance = id;
      timer.transfer = k;
      core_.backend().start_timer(core::Seconds(inst.parts[k].start - core_.now()), core_.new_token(timer));
    } else {
      start_collective_part(id, k);
    }
  }
}

void CollapsedFidelity::start_collective_part(uint32_t id, uint32_t k) {
  CollectiveInstance::Part& part = core_.instance(id).parts[k];
  ReplayActivity payload;
  payload.kind = ReplayActivity::Kind::kCollectiveTimer;
  payload.instance = id;
  const double done = std::max(0.0, core_.now() - part.start);
  if (done > 0 && part.seconds > 0) {
    const double left = std::max(0.0, part.seconds - done);
    for (auto& entry : part.shared_bytes) entry.second *= left / part.seconds;
    part.seconds = left;
  }
  start_charge(CollapsedCosts::Charge{part.seconds, std::move(part.shared_bytes)}, payload);
}

void CollapsedFidelity::collective_timer_done(uint32_t id) {
  if (--core_.instance(id).parts_left > 0) return;
  CollectiveInstance inst = core_.take_instance(id);
  for (size_t m = 0; m < inst.members.size(); ++m) {
    if (!inst.load_of_member.empty()) {
      const uint64_t key = ReplayCore::load_key(inst.members[m], inst.op_of_member[m]);
      core_.set_expert_load(inst.members[m], inst.op_of_member[m], inst.load_of_member[m]);
      expert_max_load_[key] = inst.max_load;
      if (!inst.group_load.empty()) expert_group_load_[key] = inst.group_load;
    }
    core_.collective_op_done(inst.members[m], inst.op_of_member[m], inst.last_join);
  }
}

}  // namespace zs::engine
