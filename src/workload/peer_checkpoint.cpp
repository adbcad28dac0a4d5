// The peer rule and the snapshot trace of peer-memory checkpoints.
#include "workload/peer_checkpoint.hpp"
#include "workload/mesh_axes.hpp"

namespace zs::workload {

std::optional<PeerRule> peer_rule(const Trace& trace) {
  const auto axes = trace.communicator_axes(axis_names::kData);
  if (!axes) return std::nullopt;
  for (size_t axis : *axes) {  // ascending: the first is the outermost
    const uint32_t size = trace.mesh.axes()[axis].size;
    if (size >= 2) return PeerRule{axis, static_cast<int32_t>(size / 2)};
  }
  return std::nullopt;
}

Trace peer_snapshot_trace(const Trace& job, const PeerRule& rule,
                          const std::vector<core::Bytes>& state_of_role) {
  Trace t;
  t.name = job.name + "-peer-snapshot";
  t.mesh = job.mesh;
  t.role_axis = job.role_axis;
  t.communicators = job.communicators;
  t.streams = {"copy", "send", "receive"};
  const std::string& axis = job.mesh.axes()[rule.axis].name;
  for (size_t role = 0; role < job.roles.size(); ++role) {
    const core::Bytes state = state_of_role.at(role);
    RoleProgram p;
    p.name = job.roles[role].name;
    ComputeOp copy;
    copy.flops = core::Flops(0.0);
    copy.bytes = state * 2.0;
    copy.kind = core::WorkKind::kVector;
    p.ops.push_back({"local snapshot", "checkpoint", 0, {}, copy});
    p.ops.push_back(
        {"copy to peer", "checkpoint", 1, {}, P2POp{P2PDirection::kSend, axis, rule.offset, state, true}});
    p.ops.push_back(
        {"copy from peer", "checkpoint", 2, {}, P2POp{P2PDirection::kRecv, axis, -rule.offset, state, true}});
    t.roles.push_back(std::move(p));
  }
  t.model_flops = core::Flops(0.0);
  t.model_dtype = job.model_dtype;
  t.tokens_per_iteration = 0;
  return t;
}

}  // namespace zs::workload
