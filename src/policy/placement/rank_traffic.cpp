// Per-rank traffic of a trace.
#include "policy/placement/rank_traffic.hpp"

#include <algorithm>

namespace zs::policy {
namespace {

double bytes_sent(workload::CollectiveKind kind, double S, double n) {
  using K = workload::CollectiveKind;
  if (n <= 1) return 0;
  switch (kind) {
    case K::kAllReduce:
      return 2 * (n - 1) / n * S;
    case K::kBroadcast:
    case K::kReduce:
      return S;
    default:
      return (n - 1) / n * S;
  }
}

}  // namespace

RankTraffic::RankTraffic(const workload::Trace& trace) : trace_(trace), roles_(trace.roles.size()) {
  for (size_t role = 0; role < trace.roles.size(); ++role)
    for (const auto& op : trace.roles[role].ops) {
      if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
        auto groups = groups_of_.find(c->communicator);
        if (groups == groups_of_.end())
          groups = groups_of_.emplace(c->communicator, *trace.groups_of(c->communicator)).first;
        const double n = double(groups->second.largest());
        auto& to = c->kind == workload::CollectiveKind::kAllToAll ? roles_[role].spread : roles_[role].ring;
        to[c->communicator] += bytes_sent(c->kind, c->bytes.value(), n);
      } else if (const auto* p = std::get_if<workload::P2POp>(&op.body)) {
        if (p->direction != workload::P2PDirection::kSend) continue;
        roles_[role].p2p[{p->axis, p->offset, p->wrap}] += p->bytes.value();
        roles_[role].p2p_names.emplace(p->axis, "p2p:" + p->axis);
      }
    }
}

void RankTraffic::sends_of(uint64_t r, std::vector<Send>& out) const {
  out.clear();
  const RoleSends& sends = roles_[trace_.role_of(r)];
  for (const auto& [comm, bytes] : sends.ring) {
    if (bytes <= 0) {
      out.push_back({&comm, r, 0.0});
      continue;
    }
    const auto& groups = groups_of_.at(comm);
    if (!groups.index(r)) continue;  // listed groups that do not hold r
    const auto members = groups.members(r);
    const size_t self = size_t(std::find(members.begin(), members.end(), r) - members.begin());
    out.push_back({&comm, members[(self + 1) % members.size()], bytes});
  }
  for (const auto& [comm, bytes] : sends.spread) {
    const auto& groups = groups_of_.at(comm);
    if (!groups.index(r)) continue;
    const auto members = groups.members(r);
    const size_t step = std::max<size_t>(1, members.size() / 16);
    double count = 0;
    for (size_t m = 0; m < members.size() && bytes > 0; m += step) count += members[m] != r ? 1 : 0;
    if (count == 0) {
      out.push_back({&comm, r, 0.0});
      continue;
    }
    for (size_t m = 0; m < members.size(); m += step)
      if (members[m] != r) out.push_back({&comm, members[m], bytes / count});
  }
  for (const auto& [key, bytes] : sends.p2p) {
    const auto& [axis_name, offset, wrap] = key;
    workload::P2POp send;
    send.axis = axis_name;
    send.offset = offset;
    send.wrap = wrap;
    if (auto peer = trace_.peer_of(r, send)) out.push_back({&sends.p2p_names.at(axis_name), *peer, bytes});
  }
}

}  // namespace zs::policy
