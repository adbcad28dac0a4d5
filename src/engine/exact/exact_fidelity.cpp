// Exact fidelity: SimGrid flows for every memory move, point-to-point transfer and collective
// transfer, held while the optical circuits on their route come up.
#include "engine/exact/exact_fidelity.hpp"

#include <stdexcept>

#include "core/input_error.hpp"
#include "topology/routing.hpp"
#include "topology/unit_domains.hpp"

namespace zs::engine {

ExactFidelity::ExactFidelity(ReplayCore& core, std::vector<topology::CircuitReconfiguration> reconfigurations)
    : core_(core), circuits_(core.machine(), std::move(reconfigurations)) {}

void ExactFidelity::start_memory_move(uint64_t rank, core::Bytes bytes, bool read,
                                      const ReplayActivity& done) {
  const auto unit = core_.placement().unit_of_rank[rank], pool = core_.placement().pool_of_rank.at(rank);
  start_transfer(read ? pool : unit, read ? unit : pool, bytes, done);
}

void ExactFidelity::start_p2p(uint64_t src, uint64_t dst, core::Bytes bytes, const ReplayActivity& done) {
  start_transfer(core_.placement().unit_of_rank[src], core_.placement().unit_of_rank[dst], bytes, done);
}

void ExactFidelity::start_collective_transfer(const CollectiveInstance& inst, uint32_t t,
                                              const ReplayActivity& done) {
  const auto& tr = inst.schedule.transfers[t];
  // A pipelined chunk pays its route's physical latency only; the others their step's mean step latency.
  const double step_latency = tr.pipelined                ? 0.0
                              : inst.step_latency.empty() ? -1.0
                                                          : inst.step_latency[tr.step];
  const auto src = endpoint_node(inst, tr.src), dst = endpoint_node(inst, tr.dst);
  // The library's fixed cost delays the first step's transfers; their latency and share are unchanged.
  if (tr.step == 0 && !tr.pipelined && inst.base_latency > 0)
    hold({src, dst, tr.bytes, done, step_latency}, inst.base_latency);
  else
    start_transfer(src, dst, tr.bytes, done, step_latency);
}

uint32_t ExactFidelity::create_instance(const InstanceKey& key, uint64_t rank, uint32_t op,
                                        const workload::CommunicatorGroups& groups,
                                        const workload::CollectiveOp& c) {
  CollectiveInstance inst;
  inst.kind = c.kind;
  inst.bytes = c.bytes;
  inst.members = groups.members(rank);
  core_.schedule_transfers(inst, rank, op, groups, c);
  return core_.add_instance(std::move(inst), key);
}

void ExactFidelity::join_analytic(uint32_t, uint64_t, uint32_t, const workload::CommunicatorGroups&,
                                  const workload::CollectiveOp&) {
  throw std::logic_error("exact fidelity creates no analytic collective instance");
}

void ExactFidelity::complete(const ReplayActivity& a) {
  if (a.kind != ReplayActivity::Kind::kHeldTransfer)
    throw std::logic_error("exact fidelity started no activity of this kind");
  HeldTransfer h = held_transfers_[a.held];
  free_held_.push_back(a.held);
  start_transfer(h.src, h.dst, h.bytes, h.activity, h.step_latency);
}

void ExactFidelity::count_link_bytes(topology::NodeId src, const std::vector<topology::LinkId>& route,
                                     double bytes) {
  topology::NodeId at = src;
  for (auto l : route) {
    const auto& link = core_.machine().topology.links()[l];
    const bool forward = link.a == at;
    core_.link_bytes()[2 * size_t(l) + (forward ? 0 : 1)] += bytes;
    at = forward ? link.b : link.a;
  }
}

void ExactFidelity::start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes,
                                   const ReplayActivity& a, double step_latency) {
  if (!circuits_.empty()) circuits_.advance(core_.backend().now(), core_.backend().router());
  std::vector<topology::LinkId> route;
  try {
    route = core_.backend().router().route(src, dst);
  } catch (const std::invalid_argument& e) {
    throw core::InputError(core_.machine().name, "",
                           std::string(e.what()) + " at t = " + core::to_string(core_.backend().now()) +
                               " (the links or optical circuits between them are down)");
  }
  // A collective library's step latency above the route's own is a delay before the transfer starts
  // (the library's synchronization), not a network latency: SimGrid's max-min sharing weighs each flow
  // by its latency, which would give the first chunk of a pipeline a smaller share of its links.
  const double route_s = topology::route_latency(core_.machine(), route).value();
  const double step_s =
      step_latency >= 0 ? step_latency : topology::route_step_latency(core_.machine(), route).value();
  if (step_s > route_s) {
    hold({src, dst, bytes, a, 0.0}, step_s - route_s);
    return;
  }
  const double ready = circuits_.ready_at(route).value();
  if (ready <= core_.now()) {
    count_link_bytes(src, route, bytes.value());
    const auto token = core_.new_token(a);
    if (core_.records_timeline() && !route.empty())
      core_.record_link_transfer(token, src, route, bytes.value());
    core_.backend().start_transfer(src, dst, bytes, token, route, 0.0);
    return;
  }
  core_.count_circuit_wait();
  hold({src, dst, bytes, a, step_latency}, ready - core_.now());
}

void ExactFidelity::hold(const HeldTransfer& transfer, double delay) {
  uint32_t index;
  if (!free_held_.empty()) {
    index = free_held_.back();
    free_held_.pop_back();
    held_transfers_[index] = transfer;
  } else {
    index = static_cast<uint32_t>(held_transfers_.size());
    held_transfers_.push_back(transfer);
  }
  ReplayActivity wait;
  wait.kind = ReplayActivity::Kind::kHeldTransfer;
  wait.held = index;
  core_.backend().start_timer(core::Seconds(delay), core_.new_token(wait));
}

topology::NodeId ExactFidelity::endpoint_node(const CollectiveInstance& inst, uint32_t end) const {
  const auto n = static_cast<uint32_t>(inst.members.size());
  if (end < n) return core_.placement().unit_of_rank[inst.members[end]];
  return *topology::reduction_switch(core_.machine(), core_.placement().unit_of_rank[inst.members[end - n]]);
}

}  // namespace zs::engine
