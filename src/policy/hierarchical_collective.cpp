// Two-level (intra-domain, inter-domain) collective schedules.
#include "policy/hierarchical_collective.hpp"

#include <map>
#include <stdexcept>

#include "policy/all_to_all.hpp"
#include "policy/ring_collective.hpp"
#include "policy/schedule_builder.hpp"
#include "topology/unit_domains.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// The members with the same place in their domain: row j holds place j of every domain.
std::vector<std::vector<uint32_t>> transpose(const std::vector<std::vector<uint32_t>>& domains) {
  std::vector<std::vector<uint32_t>> across(domains.front().size());
  for (const auto& domain : domains)
    for (size_t j = 0; j < domain.size(); ++j) across[j].push_back(domain[j]);
  return across;
}

CollectiveSchedule hierarchical_all_to_all(const CollectiveRequest& request,
                                           const std::vector<std::vector<uint32_t>>& domains) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const size_t d = domains.size(), m = domains.front().size();
  CollectiveSchedule s;
  s.algorithm = "hierarchical";
  s.steps = 2;
  std::vector<std::vector<uint32_t>> into(n);  // phase-1 transfers each member receives
  // Phase 1: member (D, i) gathers at (D, j) everything bound for place j of any domain.
  for (const auto& domain : domains)
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < m; ++j) {
        if (i == j) continue;
        double bytes = 0;
        for (const auto& other : domains) bytes += all_to_all_bytes(request, domain[i], other[j]);
        if (bytes <= 0) continue;
        into[domain[j]].push_back(static_cast<uint32_t>(s.transfers.size()));
        s.transfers.push_back({domain[i], domain[j], core::Bytes(bytes), 0, {}});
      }
  // Phase 2: (D, j) sends to (E, j) what its domain has for (E, j), once it has gathered it.
  for (size_t a = 0; a < d; ++a)
    for (size_t b = 0; b < d; ++b) {
      if (a == b) continue;
      for (size_t j = 0; j < m; ++j) {
        double bytes = 0;
        for (size_t i = 0; i < m; ++i) bytes += all_to_all_bytes(request, domains[a][i], domains[b][j]);
        if (bytes <= 0) continue;
        s.transfers.push_back({domains[a][j], domains[b][j], core::Bytes(bytes), 1, into[domains[a][j]]});
      }
    }
  return s;
}

}  // namespace

std::vector<std::vector<uint32_t>> member_domains(const CollectiveRequest& request) {
  if (request.machine == nullptr) return {};
  std::map<uint64_t, size_t> index_of_key;
  std::vector<std::vector<uint32_t>> domains;
  for (uint32_t i = 0; i < request.member_units.size(); ++i) {
    const auto unit = request.member_units[i];
    const auto sw = topology::domain_switch(*request.machine, unit);
    const uint64_t key = sw ? *sw : (uint64_t(1) << 32) + unit;  // no switch: the unit alone
    auto [it, added] = index_of_key.try_emplace(key, domains.size());
    if (added) domains.emplace_back();
    domains[it->second].push_back(i);
  }
  if (domains.size() < 2 || domains.front().size() < 2) return {};
  for (const auto& domain : domains)
    if (domain.size() != domains.front().size()) return {};
  return domains;
}

CollectiveSchedule HierarchicalCollective::schedule(const CollectiveRequest& request) const {
  const auto domains = member_domains(request);
  if (request.kind == CollectiveKind::kAllToAll)
    return domains.empty() ? direct_all_to_all(request) : hierarchical_all_to_all(request, domains);
  if (request.kind != CollectiveKind::kAllReduce && request.kind != CollectiveKind::kReduceScatter &&
      request.kind != CollectiveKind::kAllGather)
    throw std::invalid_argument("the hierarchical policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  if (domains.empty()) return RingCollective().schedule(request);

  const auto n = static_cast<uint32_t>(request.member_units.size());
  const auto d = static_cast<uint32_t>(domains.size()), m = static_cast<uint32_t>(domains.front().size());
  const auto across = transpose(domains);
  const double S = request.bytes.value();
  CollectiveSchedule s;
  s.algorithm = "hierarchical";
  ScheduleBuilder b(s, n);
  switch (request.kind) {
    case CollectiveKind::kAllReduce:
      ring_steps(b, domains, m - 1, S / m);
      ring_steps(b, across, 2 * (d - 1), S / (double(m) * d));
      ring_steps(b, domains, m - 1, S / m);
      break;
    case CollectiveKind::kReduceScatter:
      ring_steps(b, domains, m - 1, S / m);
      ring_steps(b, across, d - 1, S / (double(m) * d));
      break;
    default:  // all-gather
      ring_steps(b, across, d - 1, S / (double(m) * d));
      ring_steps(b, domains, m - 1, S / m);
      break;
  }
  return s;
}

}  // namespace zs::policy
