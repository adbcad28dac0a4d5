// Exact-fidelity replay: per-rank dependency tracking, collective instances, SimGrid activities.
#include "engine/replayer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "core/input_error.hpp"
#include "engine/simgrid_backend.hpp"

namespace zs::engine {
namespace {

using Interval = std::pair<double, double>;

/// The dependency graph of one role program, shared by every rank of that role.
struct RoleGraph {
  std::vector<std::vector<uint32_t>> successors;
  std::vector<uint32_t> initial_pending;
};

RoleGraph compile(const workload::RoleProgram& program, size_t streams) {
  const size_t n = program.ops.size();
  RoleGraph g{std::vector<std::vector<uint32_t>>(n), std::vector<uint32_t>(n, 0)};
  std::vector<std::optional<uint32_t>> last_on_stream(streams);
  for (uint32_t i = 0; i < n; ++i) {
    const auto& op = program.ops[i];
    std::set<uint32_t> preds(op.deps.begin(), op.deps.end());
    if (auto last = last_on_stream[op.stream]) preds.insert(*last);
    for (uint32_t p : preds) g.successors[p].push_back(i);
    g.initial_pending[i] = static_cast<uint32_t>(preds.size());
    last_on_stream[op.stream] = i;
  }
  return g;
}

/// The JSON path of op `op` of role `role` in the trace, for errors.
std::string op_path(uint32_t role, size_t op) {
  return "/roles/" + std::to_string(role) + "/ops/" + std::to_string(op);
}

double union_length(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0, start = 0, end = -1;
  bool open = false;
  for (auto [a, b] : intervals) {
    if (open && a <= end) {
      end = std::max(end, b);
      continue;
    }
    if (open) total += end - start;
    start = a;
    end = b;
    open = true;
  }
  if (open) total += end - start;
  return total;
}

}  // namespace

struct Replayer::State {
  enum class Kind : uint8_t { kOp, kCollectiveTransfer, kP2P, kCircuitWait };
  struct Activity {
    Kind kind = Kind::kOp;
    uint64_t rank = 0;       ///< op, p2p: the rank (the sender for p2p)
    uint32_t op = 0;         ///< op, p2p: the op
    uint32_t instance = 0;   ///< collective transfer: the collective instance
    uint32_t transfer = 0;   ///< collective transfer: index in its schedule
    uint64_t peer_rank = 0;  ///< p2p: the receiver
    uint32_t peer_op = 0;    ///< p2p: the receiver's op
    uint32_t held = 0;       ///< circuit wait: index in held_transfers
  };
  /// A transfer waiting for an optical circuit on its route to come up.
  struct HeldTransfer {
    topology::NodeId src, dst;
    core::Bytes bytes;
    Activity activity;  ///< what completes when the transfer does
  };
  /// The two halves of a point-to-point transfer, keyed by (sender, receiver, direction, sequence number).
  struct P2PHalf {
    uint64_t rank;
    uint32_t op;
  };
  struct Channel {
    std::optional<P2PHalf> send, recv;
  };

  struct Instance {
    workload::CollectiveKind kind;
    core::Bytes bytes;
    std::vector<uint64_t> members;  ///< ranks in communicator order
    policy::CollectiveSchedule schedule;
    std::vector<uint32_t> op_of_member;
    std::vector<bool> arrived;
    std::vector<uint32_t> remaining_of_member;  ///< transfers the member still sends or receives
    std::vector<std::vector<uint32_t>> transfers_of_member;
    std::vector<uint32_t> pending_after;
    std::vector<std::vector<uint32_t>> successors;
    std::vector<bool> started;
    uint32_t done_members = 0;
    std::vector<double> load_of_member;  ///< expert dispatch: tokens received / nominal
  };

  State(const topology::Machine& m, const workload::Trace& t, const policy::Placement& p,
        const policy::CollectivePolicy& c, std::vector<topology::CircuitReconfiguration> reconfigurations)
      : machine(m),
        trace(t),
        placement(p),
        collective(c),
        backend(m),
        circuits(m, std::move(reconfigurations)) {}

  const topology::Machine& machine;
  const workload::Trace& trace;
  const policy::Placement& placement;
  const policy::CollectivePolicy& collective;
  SimgridBackend backend;
  topology::CircuitTimeline circuits;
  std::vector<HeldTransfer> held_transfers;
  std::vector<uint32_t> free_held;

  std::vector<RoleGraph> graphs;
  std::vector<uint32_t> role_of_rank;
  std::vector<std::vector<uint32_t>> pending;   ///< per rank, per op: unfinished predecessors
  std::vector<std::vector<double>> op_start;    ///< per rank, per op, s
  std::vector<std::vector<uint32_t>> coll_seq;  ///< per rank, per communicator: collectives issued
  std::vector<std::vector<size_t>> communicator_axes;
  std::map<std::string, size_t> communicator_index;
  std::vector<std::vector<Interval>> compute_busy, comm_busy, p2p_busy, memory_busy;
  std::vector<std::vector<std::vector<Interval>>> comm_busy_by;  ///< per rank, per communicator
  std::map<std::tuple<uint64_t, uint64_t, int32_t, uint32_t>, Channel> channels;
  std::map<std::tuple<uint64_t, uint64_t, int32_t>, uint32_t> sends_posted, recvs_posted;
  std::vector<double> finish;
  std::vector<uint64_t> ops_done;

  std::vector<Activity> activities;
  std::vector<SimgridBackend::Token> free_tokens;
  std::unordered_map<uint32_t, Instance> instances;  ///< node-based: references survive inserts
  std::map<std::tuple<size_t, uint64_t, uint32_t>, uint32_t> instance_by_key;
  uint32_t next_instance = 0;
  std::set<std::string> algorithms;
  /// Expert load of (rank, dispatch op): tokens the rank received / nominal, for ops scaled by it.
  std::unordered_map<uint64_t, double> expert_load;
  ReplayResult result;

  uint64_t load_key(uint64_t rank, uint32_t op) const { return rank * 0x100000000ull + op; }

  double now() const { return backend.now().value(); }
  const workload::RoleProgram& program(uint64_t rank) const { return trace.roles[role_of_rank[rank]]; }

  SimgridBackend::Token new_token(const Activity& a) {
    if (!free_tokens.empty()) {
      auto t = free_tokens.back();
      free_tokens.pop_back();
      activities[t] = a;
      return t;
    }
    activities.push_back(a);
    return activities.size() - 1;
  }

  void start_op(uint64_t rank, uint32_t op) {
    const auto& o = program(rank).ops[op];
    op_start[rank][op] = now();
    if (const auto* c = std::get_if<workload::ComputeOp>(&o.body)) {
      auto unit = placement.unit_of_rank[rank];
      hw::ComputeWork work{c->flops, c->bytes, c->dtype, c->kind, c->kernels};
      if (c->scaled_by) {
        auto load = expert_load.find(load_key(rank, *c->scaled_by));
        if (load == expert_load.end())
          throw core::InputError(trace.name, op_path(role_of_rank[rank], op) + "/scaled_by",
                                 "op \"" + o.name +
                                     "\" started before the dispatch it is scaled by completed " +
                                     "(add a dependency on it)");
        work.flops = work.flops * load->second;
        work.bytes = work.bytes * load->second;
      }
      auto duration = machine.unit_model(unit).compute_time(work);
      ++result.compute_activities;
      backend.start_compute(unit, duration, new_token({Kind::kOp, rank, op}));
    } else if (const auto* p = std::get_if<workload::P2POp>(&o.body)) {
      post_p2p(rank, op, *p);
    } else if (const auto* m = std::get_if<workload::MemoryOp>(&o.body)) {
      auto unit = placement.unit_of_rank[rank], pool = placement.pool_of_rank.at(rank);
      bool read = m->direction == workload::MemoryDirection::kRead;
      ++result.memory_activities;
      start_transfer(read ? pool : unit, read ? unit : pool, m->bytes, {Kind::kOp, rank, op});
    } else {
      join(rank, op, std::get<workload::CollectiveOp>(o.body));
    }
  }

  /// Adds a transfer's bytes to each link of its route, in the direction it crosses it.
  void count_link_bytes(topology::NodeId src, const std::vector<topology::LinkId>& route, double bytes) {
    topology::NodeId at = src;
    for (auto l : route) {
      const auto& link = machine.topology.links()[l];
      const bool forward = link.a == at;
      result.link_bytes[2 * size_t(l) + (forward ? 0 : 1)] += bytes;
      at = forward ? link.b : link.a;
    }
  }

  /// Starts a network transfer over the route the fabric offers now, or holds it until the optical
  /// circuits on that route are up.
  void start_transfer(topology::NodeId src, topology::NodeId dst, core::Bytes bytes, const Activity& a) {
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

  void op_done(uint64_t rank, uint32_t op) {
    const auto& o = program(rank).ops[op];
    Interval span{op_start[rank][op], now()};
    auto& busy = std::holds_alternative<workload::ComputeOp>(o.body)  ? compute_busy
                 : std::holds_alternative<workload::MemoryOp>(o.body) ? memory_busy
                 : std::holds_alternative<workload::P2POp>(o.body)    ? p2p_busy
                                                                      : comm_busy;
    busy[rank].push_back(span);
    if (const auto* c = std::get_if<workload::CollectiveOp>(&o.body)) {
      const size_t comm = communicator_of(c->communicator);
      if (comm_busy_by[rank].size() <= comm) comm_busy_by[rank].resize(comm + 1);
      comm_busy_by[rank][comm].push_back(span);
    }
    finish[rank] = std::max(finish[rank], span.second);
    ++ops_done[rank];
    for (uint32_t s : graphs[role_of_rank[rank]].successors[op])
      if (--pending[rank][s] == 0) start_op(rank, s);
  }

  void post_p2p(uint64_t rank, uint32_t op, const workload::P2POp& p) {
    const size_t axis = *trace.mesh.axis_index(p.axis);
    auto peer = trace.mesh.neighbour(rank, axis, p.offset, p.wrap);
    std::string where = op_path(role_of_rank[rank], op);
    if (!peer)
      throw core::InputError(trace.name, where,
                             "rank " + std::to_string(rank) + " has no neighbour " +
                                 std::to_string(p.offset) + " along \"" + p.axis + "\"");
    const bool send = p.direction == workload::P2PDirection::kSend;
    const uint64_t src = send ? rank : *peer, dst = send ? *peer : rank;
    // Sends and receives pair up in posting order per (sender, receiver, direction along the axis):
    // with a wrapped axis of two ranks, activations and gradients travel between the same pair.
    const int32_t tag = send ? p.offset : -p.offset;
    const uint32_t seq = (send ? sends_posted : recvs_posted)[{src, dst, tag}]++;
    auto key = std::make_tuple(src, dst, tag, seq);
    Channel& ch = channels[key];
    (send ? ch.send : ch.recv) = P2PHalf{rank, op};
    if (!ch.send || !ch.recv) return;
    const auto& sent = std::get<workload::P2POp>(program(ch.send->rank).ops[ch.send->op].body);
    const auto& expected = std::get<workload::P2POp>(program(ch.recv->rank).ops[ch.recv->op].body);
    if (sent.bytes != expected.bytes)
      throw core::InputError(trace.name, where,
                             "rank " + std::to_string(src) + " sends " + core::to_string(sent.bytes) +
                                 " but rank " + std::to_string(dst) + " expects " +
                                 core::to_string(expected.bytes));
    ++result.p2p_activities;
    Activity a{Kind::kP2P, ch.send->rank, ch.send->op, 0, 0, ch.recv->rank, ch.recv->op, 0};
    channels.erase(key);
    start_transfer(placement.unit_of_rank[src], placement.unit_of_rank[dst], sent.bytes, a);
  }

  /// Index of a communicator in `communicator_axes`, resolved once per name.
  size_t communicator_of(const std::string& name) {
    auto found = communicator_index.find(name);
    if (found != communicator_index.end()) return found->second;
    communicator_axes.push_back(*trace.communicator_axes(name));
    return communicator_index[name] = communicator_axes.size() - 1;
  }

  void join(uint64_t rank, uint32_t op, const workload::CollectiveOp& c) {
    const size_t comm = communicator_of(c.communicator);
    const auto& axes = communicator_axes[comm];
    if (coll_seq[rank].size() <= comm) coll_seq[rank].resize(comm + 1, 0);
    const uint32_t seq = coll_seq[rank][comm]++;
    const auto key = std::make_tuple(comm, trace.mesh.group_index(rank, axes), seq);
    auto found = instance_by_key.find(key);
    uint32_t id = found != instance_by_key.end() ? found->second : create_instance(key, rank, op, axes, c);
    Instance& inst = instances.at(id);
    if (inst.kind != c.kind || inst.bytes != c.bytes)
      throw core::InputError(
          trace.name, op_path(role_of_rank[rank], op),
          "rank " + std::to_string(rank) + " issues " + std::string(workload::to_string(c.kind)) + " of " +
              core::to_string(c.bytes) + " as call " + std::to_string(seq) + " on \"" + c.communicator +
              "\", but its group issued " + std::string(workload::to_string(inst.kind)) + " of " +
              core::to_string(inst.bytes));
    const uint32_t m = trace.mesh.position(rank, axes);
    inst.op_of_member[m] = op;
    inst.arrived[m] = true;
    if (inst.remaining_of_member[m] == 0) {
      member_done(id, m);
      return;
    }
    for (uint32_t t : inst.transfers_of_member[m]) try_start(id, t);
  }

  /// A collective instance for the group of `rank`, which joins it with op `op`.
  uint32_t create_instance(const std::tuple<size_t, uint64_t, uint32_t>& key, uint64_t rank, uint32_t op,
                           const std::vector<size_t>& axes, const workload::CollectiveOp& c) {
    Instance inst;
    inst.kind = c.kind;
    inst.bytes = c.bytes;
    inst.members = trace.mesh.group_members(rank, axes);
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
      throw core::InputError(trace.name, op_path(role_of_rank[rank], op),
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
      for (uint32_t member : {tr.src, tr.dst}) {
        inst.transfers_of_member.at(member).push_back(t);
        ++inst.remaining_of_member[member];
      }
    }
    uint32_t id = next_instance++;
    instances.emplace(id, std::move(inst));
    instance_by_key.emplace(key, id);
    ++result.collectives;
    return id;
  }

  void try_start(uint32_t id, uint32_t t) {
    Instance& inst = instances.at(id);
    const auto& tr = inst.schedule.transfers[t];
    if (inst.started[t] || inst.pending_after[t] != 0 || !inst.arrived[tr.src] || !inst.arrived[tr.dst])
      return;
    inst.started[t] = true;
    ++result.transfer_activities;
    start_transfer(placement.unit_of_rank[inst.members[tr.src]], placement.unit_of_rank[inst.members[tr.dst]],
                   tr.bytes, {Kind::kCollectiveTransfer, 0, 0, id, t, 0, 0, 0});
  }

  void transfer_done(uint32_t id, uint32_t t) {
    Instance& inst = instances.at(id);
    for (uint32_t s : inst.successors[t])
      if (--inst.pending_after[s] == 0) try_start(id, s);
    const auto& tr = inst.schedule.transfers[t];
    std::vector<uint32_t> finished_members;
    for (uint32_t member : {tr.src, tr.dst})
      if (--inst.remaining_of_member[member] == 0) finished_members.push_back(member);
    for (uint32_t member : finished_members) member_done(id, member);
  }

  void member_done(uint32_t id, uint32_t m) {
    Instance& inst = instances.at(id);
    const uint64_t rank = inst.members[m];
    const uint32_t op = inst.op_of_member[m];
    if (!inst.load_of_member.empty()) expert_load[load_key(rank, op)] = inst.load_of_member[m];
    if (++inst.done_members == inst.members.size()) instances.erase(id);
    op_done(rank, op);
  }

  void on_complete(SimgridBackend::Token token) {
    Activity a = activities[token];
    free_tokens.push_back(token);
    switch (a.kind) {
      case Kind::kCollectiveTransfer:
        transfer_done(a.instance, a.transfer);
        break;
      case Kind::kP2P:
        op_done(a.rank, a.op);
        op_done(a.peer_rank, a.peer_op);
        break;
      case Kind::kOp:
        op_done(a.rank, a.op);
        break;
      case Kind::kCircuitWait: {
        HeldTransfer h = held_transfers[a.held];
        free_held.push_back(a.held);
        start_transfer(h.src, h.dst, h.bytes, h.activity);
        break;
      }
    }
  }
};

Replayer::Replayer(const topology::Machine& machine, const workload::Trace& trace,
                   const policy::Placement& placement, const policy::CollectivePolicy& collective,
                   std::vector<topology::CircuitReconfiguration> reconfigurations)
    : machine_(machine),
      trace_(trace),
      placement_(placement),
      collective_(collective),
      reconfigurations_(std::move(reconfigurations)) {}

Replayer::~Replayer() = default;

ReplayResult Replayer::run() {
  const uint64_t ranks = trace_.mesh.size();
  if (placement_.unit_of_rank.size() != ranks)
    throw std::logic_error("placement size does not match the mesh");
  // Every dtype the trace computes in must be supported by the unit that runs it, and memory moves
  // need a pool.
  for (uint64_t r = 0; r < ranks; ++r) {
    for (size_t i = 0; i < trace_.program_of(r).ops.size(); ++i)
      if (std::holds_alternative<workload::MemoryOp>(trace_.program_of(r).ops[i].body) &&
          placement_.pool_of_rank.size() != ranks)
        throw core::InputError(trace_.name, op_path(trace_.role_of(r), i),
                               "a memory move, but machine \"" + machine_.name + "\" has no memory pool");
    const auto& model = machine_.unit_model(placement_.unit_of_rank[r]);
    const auto& ops = trace_.program_of(r).ops;
    if (const auto& f = trace_.program_of(r).memory; f && f->total() > model.hbm_capacity())
      throw core::InputError(
          trace_.name, "/roles/" + std::to_string(trace_.role_of(r)) + "/memory",
          "capacity: role \"" + trace_.program_of(r).name + "\" needs " + core::to_string(f->total()) +
              " per rank (weights " + core::to_string(f->weights) + ", gradients " +
              core::to_string(f->gradients) + ", optimizer " + core::to_string(f->optimizer) +
              ", activations " + core::to_string(f->activations) + ", buffers " +
              core::to_string(f->buffers) + "), but a \"" + model.name() + "\" (rank " + std::to_string(r) +
              ") has " + core::to_string(model.hbm_capacity()));
    for (size_t i = 0; i < ops.size(); ++i) {
      const auto* c = std::get_if<workload::ComputeOp>(&ops[i].body);
      if (c == nullptr) continue;
      const std::string where = op_path(trace_.role_of(r), i);
      if (c->kind == core::WorkKind::kMatrix && !model.supports(c->dtype))
        throw core::InputError(trace_.name, where + "/dtype",
                               "rank " + std::to_string(r) + " runs on a \"" + model.name() +
                                   "\", which has no matrix peak for " +
                                   std::string(core::to_string(c->dtype)));
      if (c->memory > model.hbm_capacity())
        throw core::InputError(trace_.name, where + "/memory",
                               "capacity: op \"" + ops[i].name + "\" needs " + core::to_string(c->memory) +
                                   " of HBM, but a \"" + model.name() + "\" (rank " + std::to_string(r) +
                                   ") has " + core::to_string(model.hbm_capacity()));
    }
  }

  State s(machine_, trace_, placement_, collective_, reconfigurations_);
  s.result.link_bytes.assign(2 * machine_.topology.links().size(), 0.0);
  for (const auto& role : trace_.roles) s.graphs.push_back(compile(role, trace_.streams.size()));
  s.role_of_rank.resize(ranks);
  s.pending.resize(ranks);
  s.op_start.resize(ranks);
  s.coll_seq.assign(ranks, {});
  s.compute_busy.resize(ranks);
  s.comm_busy.resize(ranks);
  s.comm_busy_by.resize(ranks);
  s.memory_busy.resize(ranks);
  s.p2p_busy.resize(ranks);
  s.finish.assign(ranks, 0.0);
  s.ops_done.assign(ranks, 0);
  for (uint64_t r = 0; r < ranks; ++r) {
    s.role_of_rank[r] = trace_.role_of(r);
    s.pending[r] = s.graphs[s.role_of_rank[r]].initial_pending;
    s.op_start[r].assign(s.pending[r].size(), 0.0);
  }
  for (uint64_t r = 0; r < ranks; ++r)
    for (uint32_t op = 0; op < s.pending[r].size(); ++op)
      if (s.graphs[s.role_of_rank[r]].initial_pending[op] == 0) s.start_op(r, op);

  s.backend.run([&s](SimgridBackend::Token token) { s.on_complete(token); });

  for (uint64_t r = 0; r < ranks; ++r)
    if (s.ops_done[r] != s.program(r).ops.size())
      throw core::InputError(
          trace_.name, "/roles/" + std::to_string(s.role_of_rank[r]),
          "deadlock: rank " + std::to_string(r) + " completed " + std::to_string(s.ops_done[r]) + " of " +
              std::to_string(s.program(r).ops.size()) + " ops (a collective its group never issued?)");

  ReplayResult& out = s.result;
  double t_end = 0;
  for (uint64_t r = 0; r < ranks; ++r)
    if (s.finish[r] > t_end) {
      t_end = s.finish[r];
      out.critical_rank = r;
    }
  out.iteration_time = core::Seconds(t_end);
  out.ranks.resize(ranks);
  for (uint64_t r = 0; r < ranks; ++r) {
    // Each category counts the time it is active and no category before it is.
    const std::vector<Interval>* categories[4] = {&s.compute_busy[r], &s.comm_busy[r], &s.p2p_busy[r],
                                                  &s.memory_busy[r]};
    std::vector<Interval> all;
    double covered[4];
    for (int c = 0; c < 4; ++c) {
      all.insert(all.end(), categories[c]->begin(), categories[c]->end());
      covered[c] = union_length(all);
    }
    out.ranks[r] = {core::Seconds(s.finish[r]),
                    core::Seconds(covered[0]),
                    core::Seconds(covered[1] - covered[0]),
                    core::Seconds(covered[2] - covered[1]),
                    core::Seconds(covered[3] - covered[2]),
                    core::Seconds(t_end - covered[3]),
                    {}};
    for (const auto& [name, comm] : s.communicator_index) {  // sorted by name
      if (comm >= s.comm_busy_by[r].size() || s.comm_busy_by[r][comm].empty()) continue;
      std::vector<Interval> with = s.compute_busy[r];
      with.insert(with.end(), s.comm_busy_by[r][comm].begin(), s.comm_busy_by[r][comm].end());
      out.ranks[r].exposed_by_communicator.emplace_back(name, core::Seconds(union_length(with) - covered[0]));
    }
  }
  out.collective_algorithms.assign(s.algorithms.begin(), s.algorithms.end());
  return out;
}

}  // namespace zs::engine
