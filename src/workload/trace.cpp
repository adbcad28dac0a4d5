// Trace helpers and structural validation.
#include "workload/trace.hpp"

#include <algorithm>
#include <map>

#include "core/input_error.hpp"

namespace zs::workload {

std::string_view to_string(CollectiveKind k) {
  switch (k) {
    case CollectiveKind::kAllReduce:
      return "all-reduce";
    case CollectiveKind::kReduceScatter:
      return "reduce-scatter";
    case CollectiveKind::kAllGather:
      return "all-gather";
    case CollectiveKind::kAllToAll:
      return "all-to-all";
    case CollectiveKind::kBroadcast:
      return "broadcast";
    case CollectiveKind::kReduce:
      return "reduce";
  }
  return "?";
}

std::optional<CheckpointSize> Trace::checkpoint_size() const {
  if (roles.empty()) return std::nullopt;
  CheckpointSize size;
  for (const auto& role : roles) {
    if (!role.memory || !role.memory->checkpoint) return std::nullopt;
    size.total += *role.memory->checkpoint * static_cast<double>(ranks_per_role());
    size.per_rank_max = std::max(size.per_rank_max, *role.memory->checkpoint);
  }
  return size;
}

uint32_t Trace::role_of(uint64_t rank) const {
  if (role_axis.empty()) return 0;
  if (const auto axis = mesh.axis_index(role_axis)) return mesh.coordinate(rank, *axis);
  return mesh.position(rank, *communicator_axes(role_axis));
}

std::optional<uint64_t> Trace::peer_of(uint64_t rank, const P2POp& p) const {
  if (const auto axis = mesh.axis_index(p.axis)) return mesh.neighbour(rank, *axis, p.offset, p.wrap);
  return mesh.neighbour(rank, *communicator_axes(p.axis), p.offset, p.wrap);
}

core::InputError trace_error(const Trace& trace, const std::string& trace_pointer, const std::string& message,
                             const std::string& key) {
  if (trace.origin_file.empty()) return core::InputError(trace.name, trace_pointer, message);
  if (trace.origin_pointer.empty() && key.empty())
    return core::InputError(trace.origin_file, trace_pointer, message);
  const std::string where = key.empty() ? trace.origin_pointer : trace.origin_pointer + "/" + key;
  return core::InputError(trace.origin_file, where,
                          message + " (in trace \"" + trace.name + "\"" +
                              (trace_pointer.empty() ? "" : " at " + trace_pointer) + ")");
}

std::optional<std::vector<size_t>> Trace::communicator_axes(std::string_view name) const {
  for (const auto& c : communicators) {
    if (c.name != name) continue;
    if (!c.groups.empty()) return std::nullopt;
    std::vector<size_t> axes;
    for (const auto& a : c.axes) {
      auto i = mesh.axis_index(a);
      if (!i) return std::nullopt;
      axes.push_back(*i);
    }
    std::sort(axes.begin(), axes.end());
    return axes;
  }
  if (auto i = mesh.axis_index(name)) return std::vector<size_t>{*i};
  return std::nullopt;
}

std::optional<CommunicatorGroups> Trace::groups_of(std::string_view name) const {
  for (const auto& c : communicators)
    if (c.name == name && !c.groups.empty()) return CommunicatorGroups(mesh, c.groups);
  if (auto axes = communicator_axes(name)) return CommunicatorGroups(mesh, std::move(*axes));
  return std::nullopt;
}

bool Trace::has_explicit_groups() const {
  return std::any_of(communicators.begin(), communicators.end(),
                     [](const auto& c) { return !c.groups.empty(); });
}

namespace {

/// Checks communicator `comm`'s explicit groups: ascending ranks of the mesh, no rank in two groups.
template <class Fail>
void validate_groups(const Trace& trace, const Communicator& comm, const std::string& at, const Fail& fail) {
  if (!comm.axes.empty()) fail(at, "a communicator has mesh axes or explicit groups, not both");
  std::vector<bool> seen(trace.mesh.size(), false);
  for (size_t g = 0; g < comm.groups.size(); ++g) {
    const auto& members = comm.groups[g];
    const std::string gat = at + "/groups/" + std::to_string(g);
    if (members.empty()) fail(gat, "a group needs at least one member");
    for (size_t k = 0; k < members.size(); ++k) {
      if (members[k] >= trace.mesh.size())
        fail(gat + "/" + std::to_string(k), "rank " + std::to_string(members[k]) + " is not in the " +
                                                std::to_string(trace.mesh.size()) + "-rank mesh");
      if (k > 0 && members[k] <= members[k - 1])
        fail(gat + "/" + std::to_string(k), "expected ascending ranks");
      if (seen[members[k]])
        fail(gat + "/" + std::to_string(k),
             "rank " + std::to_string(members[k]) + " is in two groups of \"" + comm.name + "\"");
      seen[members[k]] = true;
    }
  }
}

/// Checks that every rank issuing a collective on a communicator of listed groups is in one of them.
template <class Fail>
void validate_membership(const Trace& trace, const Fail& fail) {
  std::vector<std::vector<std::pair<size_t, size_t>>> uses(trace.roles.size());  // (communicator, op)
  for (size_t r = 0; r < trace.roles.size(); ++r)
    for (size_t i = 0; i < trace.roles[r].ops.size(); ++i)
      if (const auto* c = std::get_if<CollectiveOp>(&trace.roles[r].ops[i].body))
        for (size_t k = 0; k < trace.communicators.size(); ++k)
          if (trace.communicators[k].name == c->communicator && !trace.communicators[k].groups.empty()) {
            if (std::find_if(uses[r].begin(), uses[r].end(), [&](auto u) { return u.first == k; }) ==
                uses[r].end())
              uses[r].emplace_back(k, i);
          }
  std::map<size_t, CommunicatorGroups> groups;  // the listed communicators used, by index
  for (const auto& role_uses : uses)
    for (auto [k, op] : role_uses) groups.try_emplace(k, trace.mesh, trace.communicators[k].groups);
  for (uint64_t rank = 0; rank < trace.mesh.size(); ++rank) {
    const uint32_t role = trace.role_of(rank);
    for (auto [k, op] : uses[role])
      if (!groups.at(k).index(rank))
        fail("/roles/" + std::to_string(role) + "/ops/" + std::to_string(op) + "/communicator",
             "rank " + std::to_string(rank) + " issues a collective on \"" + trace.communicators[k].name +
                 "\", whose listed groups do not hold it");
  }
}

}  // namespace

void validate(const Trace& trace, const std::string& file) {
  auto fail = [&](const std::string& path, const std::string& msg) {
    throw core::InputError(file, path, msg);
  };
  if (trace.roles.empty()) fail("/roles", "a trace needs at least one role program");
  for (size_t c = 0; c < trace.communicators.size(); ++c) {
    const auto& comm = trace.communicators[c];
    const std::string at = "/communicators/" + std::to_string(c);
    if (comm.name.empty()) fail(at + "/name", "a communicator needs a name");
    if (!comm.groups.empty()) validate_groups(trace, comm, at, fail);
    if (comm.axes.empty() && comm.groups.empty())
      fail(at + "/axes", "a communicator spans at least one mesh axis, or lists its groups");
    for (size_t a = 0; a < comm.axes.size(); ++a) {
      if (!trace.mesh.axis_index(comm.axes[a]))
        fail(at + "/axes/" + std::to_string(a), "\"" + comm.axes[a] + "\" is not a mesh axis");
      for (size_t b = 0; b < a; ++b)
        if (comm.axes[a] == comm.axes[b])
          fail(at + "/axes/" + std::to_string(a), "axis \"" + comm.axes[a] + "\" listed twice");
    }
    for (size_t d = 0; d < c; ++d)
      if (trace.communicators[d].name == comm.name)
        fail(at + "/name", "communicator \"" + comm.name + "\" defined twice");
  }
  if (trace.streams.empty()) fail("/streams", "a trace needs at least one stream");
  if (trace.role_axis.empty()) {
    if (trace.roles.size() != 1)
      fail("/roles", "without a role_axis, a trace holds exactly one role program");
  } else {
    const auto axes = trace.communicator_axes(trace.role_axis);
    if (!axes)
      fail("/role_axis",
           "\"" + trace.role_axis + "\" is neither a mesh axis nor a communicator over mesh axes");
    const uint64_t roles = trace.mesh.group_size(*axes);
    if (trace.roles.size() != roles)
      fail("/roles", std::string("expected one role program per coordinate of ") +
                         (axes->size() == 1 ? "axis \"" : "communicator \"") + trace.role_axis + "\" (" +
                         std::to_string(roles) + "), got " + std::to_string(trace.roles.size()));
  }
  for (size_t r = 0; r < trace.roles.size(); ++r) {
    const auto& ops = trace.roles[r].ops;
    for (size_t i = 0; i < ops.size(); ++i) {
      std::string at = "/roles/" + std::to_string(r) + "/ops/" + std::to_string(i);
      if (ops[i].stream >= trace.streams.size())
        fail(at + "/stream", "stream " + std::to_string(ops[i].stream) + " does not exist");
      for (size_t d = 0; d < ops[i].deps.size(); ++d)
        if (ops[i].deps[d] >= i)
          fail(at + "/deps/" + std::to_string(d), "a dependency must name an earlier op of the same program");
      if (const auto* c = std::get_if<CollectiveOp>(&ops[i].body)) {
        const auto groups = trace.groups_of(c->communicator);
        if (!groups)
          fail(at + "/communicator", "\"" + c->communicator + "\" is neither a communicator nor a mesh axis");
        if (!(c->bytes.value() >= 0)) fail(at + "/bytes", "a collective's size must be >= 0");
        if (c->dispatch) {
          if (c->kind != CollectiveKind::kAllToAll)
            fail(at + "/dispatch",
                 "expert dispatch sizes belong to an all-to-all, not a " + std::string(to_string(c->kind)));
          if (!groups->on_mesh())
            fail(at + "/dispatch", "expert dispatch sizes need a communicator over mesh axes, not \"" +
                                       c->communicator + "\", whose groups are listed");
          {
            const uint64_t n = trace.mesh.group_size(groups->axes());
            if (c->dispatch->experts == 0 || c->dispatch->experts % n != 0)
              fail(at + "/dispatch/experts",
                   std::to_string(c->dispatch->experts) + " experts do not spread evenly over the " +
                       std::to_string(n) + " members of \"" + c->communicator + "\"");
          }
          if (c->dispatch->top_k == 0 || c->dispatch->top_k > c->dispatch->experts)
            fail(at + "/dispatch/top_k", "top_k must be in [1, experts]");
        }
      }
      if (const auto* c = std::get_if<ComputeOp>(&ops[i].body); c && c->scaled_by) {
        const uint32_t d = *c->scaled_by;
        const auto* by = d < i ? std::get_if<CollectiveOp>(&ops[d].body) : nullptr;
        if (by == nullptr || !by->dispatch || by->dispatch->combine)
          fail(at + "/scaled_by", "must name an earlier expert-dispatch all-to-all of the same program");
        if (c->duration)
          fail(at + "/compute/duration", "a measured duration cannot be scaled by expert routing");
      }
      if (const auto* p = std::get_if<P2POp>(&ops[i].body)) {
        if (!trace.communicator_axes(p->axis))
          fail(at + "/axis", "\"" + p->axis + "\" is neither a mesh axis nor a communicator over mesh axes");
        if (p->offset == 0) fail(at + "/offset", "a point-to-point peer must be another rank (offset != 0)");
        if (!(p->bytes.value() >= 0)) fail(at + "/bytes", "a transfer's size must be >= 0");
      }
      if (const auto* m = std::get_if<MemoryOp>(&ops[i].body))
        if (!(m->bytes.value() >= 0)) fail(at + "/bytes", "a memory move's size must be >= 0");
    }
  }
  if (trace.has_explicit_groups()) validate_membership(trace, fail);
}

}  // namespace zs::workload
