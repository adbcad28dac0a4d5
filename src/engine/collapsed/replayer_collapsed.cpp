// Replayer, collapsed fidelity: representatives' collectives, point-to-point transfers and memory moves
// become analytic charges that share link directions while in flight (ConcurrentCharges).
#include <algorithm>
#include <limits>

#include "engine/op_duration.hpp"
#include "engine/replayer_state.hpp"
#include "engine/trace_fit.hpp"

namespace zs::engine {

void Replayer::State::add_expert_lag(uint64_t rank, uint32_t dispatch, const workload::ComputeOp& c) {
  const auto& model = machine.unit_model(placement.unit_of_rank[rank]);
  const hw::ComputeWork nominal = work_of(c);
  auto time_at = [&](double load) {
    hw::ComputeWork w = nominal;
    w.flops = w.flops * load;
    w.bytes = w.bytes * load;
    return model.compute_time(w).value();
  };
  const uint64_t key = load_key(rank, dispatch);
  const double own = time_at(expert_load.at(key));
  expert_lag[slot(rank)] += time_at(expert_max_load.at(key)) - own;
  if (auto group = expert_group_load.find(key); group != expert_group_load.end()) {
    auto& lag = member_lag[slot(rank)];
    lag.resize(group->second.size(), 0.0);
    for (size_t m = 0; m < lag.size(); ++m) lag[m] += time_at(group->second[m]) - own;
  }
}

void Replayer::State::join_collapsed(uint32_t id, uint64_t rank, uint32_t op, const std::vector<size_t>& axes,
                                     const workload::CollectiveOp& c) {
  Instance& inst = instances.at(id);
  const auto it = std::find(inst.members.begin(), inst.members.end(), rank);
  const auto m = static_cast<uint32_t>(it - inst.members.begin());
  inst.op_of_member[m] = op;
  inst.arrived[m] = true;
  double ready = now();
  if (c.dispatch && c.dispatch->combine) {
    ready += expert_lag[slot(rank)];
    expert_lag[slot(rank)] = 0;
    auto& lag = member_lag[slot(rank)];
    if (!lag.empty()) {
      if (inst.member_ready.empty()) inst.member_ready.assign(lag.size(), 0.0);
      for (size_t k = 0; k < lag.size(); ++k)
        inst.member_ready[k] = std::max(inst.member_ready[k], now() + lag[k]);
      lag.clear();
    }
  }
  inst.ready_at = std::max(inst.ready_at, ready);
  if (++inst.arrived_members == inst.members.size()) start_collective_parts(id, rank, op, axes, c);
}

uint32_t Replayer::State::create_collapsed_instance(Instance inst,
                                                    const std::tuple<size_t, uint64_t, uint32_t>& key,
                                                    uint64_t rank, uint32_t op,
                                                    const std::vector<size_t>& axes,
                                                    const workload::CollectiveOp& c) {
  inst.members = collapse->representatives_in_group(rank, axes);
  if (inst.members.size() == trace.mesh.group_size(axes) &&
      inst.members.size() <= RankCollapse::kTransferLevelMembers) {
    // Every member is simulated: run the schedule's transfers as charges, each as its members join.
    inst.transfer_level = true;
    ++result.transfer_level_collectives;
    schedule_transfers(inst, rank, op, axes, c);
    return add_instance(std::move(inst), key);
  }
  auto charge = costs->collective(rank, std::get<0>(key), axes, c, op_path(role_of_rank[slot(rank)], op),
                                  result.link_bytes);
  algorithms.insert(charge.algorithm);
  inst.duration = charge.seconds;
  inst.shared_bytes = std::move(charge.shared_bytes);
  if (c.dispatch && !c.dispatch->combine && RankCollapse::routed_per_call(c, trace.mesh.group_size(axes)))
    inst.group_load = charge.load;
  if (c.dispatch) {
    inst.max_load = *std::max_element(charge.load.begin(), charge.load.end());
    for (uint64_t r : inst.members) inst.load_of_member.push_back(charge.load[trace.mesh.position(r, axes)]);
  }
  inst.op_of_member.assign(inst.members.size(), 0);
  inst.arrived.assign(inst.members.size(), false);
  uint32_t id = next_instance++;
  instances.emplace(id, std::move(inst));
  instance_by_key.emplace(key, id);
  ++result.collectives;
  return id;
}

void Replayer::State::start_charge(const CollapsedCosts::Charge& charge, const Activity& payload) {
  if (!(charge.seconds > 0)) {
    backend.start_timer(core::Seconds(0), new_token(payload));
    return;
  }
  const auto id = sharing->start(now(), charge.seconds, charge.shared_bytes);
  if (charge_payload.size() <= id) charge_payload.resize(id + 1);
  charge_payload[id] = payload;
  set_charge_timers();
}

void Replayer::State::set_charge_timers() {
  queue_changed_charges();
  arm_charge_wake();
}

void Replayer::State::queue_changed_charges() {
  for (auto id : sharing->changed()) charges_due.push({sharing->finish(id), id, sharing->version(id)});
}

bool Replayer::State::stale(const ChargeDue& due) const {
  return !sharing->active(due.id) || sharing->version(due.id) != due.version;
}

void Replayer::State::arm_charge_wake() {
  while (!charges_due.empty() && stale(charges_due.top())) charges_due.pop();
  if (charges_due.empty() || !(charges_due.top().finish < charge_wake_at)) return;
  charge_wake_at = charges_due.top().finish;
  Activity wake;
  wake.kind = Kind::kChargeTimer;
  wake.transfer = ++charge_wake_arms;
  backend.start_timer(core::Seconds(std::max(0.0, charge_wake_at - now())), new_token(wake));
}

void Replayer::State::charge_wake(uint32_t arm) {
  const double t = now();
  // Due: finish times up to now, and up to the time the current timer was armed for (SimGrid may fire
  // it a rounding early).
  double due_by = t + 1e-12 * std::max(1.0, t);
  if (arm == charge_wake_arms) {
    due_by = std::max(due_by, charge_wake_at);
    charge_wake_at = std::numeric_limits<double>::infinity();
  }
  while (!charges_due.empty()) {
    const ChargeDue due = charges_due.top();
    if (stale(due)) {
      charges_due.pop();
      continue;
    }
    if (due.finish > due_by) break;
    charges_due.pop();
    const Activity payload = charge_payload[due.id];
    sharing->end(due.id, t);
    queue_changed_charges();
    complete(payload);
  }
  arm_charge_wake();
}

void Replayer::State::start_collective_parts(uint32_t id, uint64_t rank, uint32_t op,
                                             const std::vector<size_t>& axes,
                                             const workload::CollectiveOp& c) {
  Instance& inst = instances.at(id);
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
      auto [early, later] =
          costs->staggered_combine(rank, axes, c, late, op_path(role_of_rank[slot(rank)], op));
      inst.parts.push_back({early_ready, early.seconds, std::move(early.shared_bytes)});
      inst.parts.push_back({std::max(last, inst.ready_at), later.seconds, std::move(later.shared_bytes)});
    }
  }
  if (inst.parts.empty()) inst.parts.push_back({inst.ready_at, inst.duration, std::move(inst.shared_bytes)});
  inst.parts_left = static_cast<uint32_t>(inst.parts.size());
  for (uint32_t k = 0; k < inst.parts.size(); ++k) {
    if (inst.parts[k].start > now()) {
      Activity timer;
      timer.kind = Kind::kCollectiveReady;
      timer.instance = id;
      timer.transfer = k;
      backend.start_timer(core::Seconds(inst.parts[k].start - now()), new_token(timer));
    } else {
      start_collective_part(id, k);
    }
  }
}

void Replayer::State::start_collective_part(uint32_t id, uint32_t k) {
  Instance::Part& part = instances.at(id).parts[k];
  Activity payload;
  payload.kind = Kind::kCollectiveTimer;
  payload.instance = id;
  const double done = std::max(0.0, now() - part.start);
  if (done > 0 && part.seconds > 0) {
    const double left = std::max(0.0, part.seconds - done);
    for (auto& entry : part.shared_bytes) entry.second *= left / part.seconds;
    part.seconds = left;
  }
  start_charge(CollapsedCosts::Charge{part.seconds, std::move(part.shared_bytes)}, payload);
}

void Replayer::State::collective_timer_done(uint32_t id) {
  if (--instances.at(id).parts_left > 0) return;
  Instance inst = std::move(instances.at(id));
  instances.erase(id);
  for (size_t m = 0; m < inst.members.size(); ++m) {
    if (!inst.load_of_member.empty()) {
      const uint64_t key = load_key(inst.members[m], inst.op_of_member[m]);
      expert_load[key] = inst.load_of_member[m];
      expert_max_load[key] = inst.max_load;
      if (!inst.group_load.empty()) expert_group_load[key] = inst.group_load;
    }
    op_done(inst.members[m], inst.op_of_member[m]);
  }
}

}  // namespace zs::engine
