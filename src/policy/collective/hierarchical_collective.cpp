// Two-level (intra-domain, inter-domain) collective schedules.
#include "policy/collective/hierarchical_collective.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/route_measurements.hpp"
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

void check_reduction(const CollectiveRequest& request) {
  if (!reduces_or_gathers(request.kind))
    throw std::invalid_argument("the hierarchical policy does not implement " +
                                std::string(workload::to_string(request.kind)));
}

/// One ring phase of the hierarchical pipeline: rings over `groups`, `steps` steps of `bytes` per chunk.
struct Phase {
  const std::vector<std::vector<uint32_t>>* groups;
  uint32_t steps;
  double bytes;
};

/// The phases of `kind` for a buffer of S over d domains of m members, one chunk of k.
std::vector<Phase> phases_of(CollectiveKind kind, const std::vector<std::vector<uint32_t>>& domains,
                             const std::vector<std::vector<uint32_t>>& across, double S, uint32_t k) {
  const auto d = static_cast<uint32_t>(domains.size()), m = static_cast<uint32_t>(domains.front().size());
  const double inside = S / k / m, between = S / k / (double(m) * d);
  switch (kind) {
    case CollectiveKind::kAllReduce:
      return {{&domains, m - 1, inside}, {&across, 2 * (d - 1), between}, {&domains, m - 1, inside}};
    case CollectiveKind::kReduceScatter:
      return {{&domains, m - 1, inside}, {&across, d - 1, between}};
    default:  // all-gather
      return {{&across, d - 1, between}, {&domains, m - 1, inside}};
  }
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
  check_reduction(request);
  if (domains.empty()) return RingCollective().schedule(request);

  const auto n = static_cast<uint32_t>(request.member_units.size());
  const auto across = transpose(domains);
  const uint32_t k = options_.chunks_for(request.bytes.value());
  const auto phases = phases_of(request.kind, domains, across, request.bytes.value(), k);
  uint32_t positions = 0;
  for (const auto& phase : phases) positions += phase.steps;
  CollectiveSchedule s;
  s.algorithm = "hierarchical";
  s.steps = k + positions - 1;
  // previous[p n + i]: member i's send at ring step p (over all phases) of the previous chunk.
  std::vector<int64_t> previous(size_t(positions) * n, -1);
  for (uint32_t c = 0; c < k; ++c) {
    std::vector<int64_t> sent(n, -1), received(n, -1);  // this chunk's last send and receive per member
    uint32_t p = 0;
    for (const auto& phase : phases) {
      for (uint32_t step = 0; step < phase.steps; ++step, ++p) {
        const size_t first = s.transfers.size();
        for (const auto& ring : *phase.groups)
          for (size_t i = 0; i < ring.size(); ++i) {
            const uint32_t src = ring[i], dst = ring[(i + 1) % ring.size()];
            Transfer t{src, dst, core::Bytes(phase.bytes), c + p, {}, c > 0};
            // The data it forwards or reduces, its own previous send, and the previous chunk's send at
            // this step: chunks follow each other through every step, several steps in flight at once.
            for (int64_t before : {received[src], sent[src], previous[size_t(p) * n + src]})
              if (before >= 0) t.after.push_back(static_cast<uint32_t>(before));
            s.transfers.push_back(std::move(t));
          }
        for (size_t t = first; t < s.transfers.size(); ++t) {
          const auto& tr = s.transfers[t];
          sent[tr.src] = previous[size_t(p) * n + tr.src] = static_cast<int64_t>(t);
          received[tr.dst] = static_cast<int64_t>(t);
        }
      }
    }
  }
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> HierarchicalCollective::steps(
    const CollectiveRequest& request) const {
  const auto domains = member_domains(request);
  if (request.kind == CollectiveKind::kAllToAll || domains.empty()) return CollectivePolicy::steps(request);
  check_reduction(request);
  const auto across = transpose(domains);
  const uint32_t k = options_.chunks_for(request.bytes.value());
  const auto phases = phases_of(request.kind, domains, across, request.bytes.value(), k);
  // Wave w runs ring step p of chunk w - p for every step p: each phase puts its ring on the links once
  // per step of it in flight. Waves in which the same steps of each phase are in flight cost the same.
  std::vector<uint32_t> first(phases.size() + 1, 0);  // first step of each phase, then the total
  for (size_t q = 0; q < phases.size(); ++q) first[q + 1] = first[q] + phases[q].steps;
  const uint32_t positions = first.back();
  CollectiveSchedule waves;
  for (uint32_t w = 0; w + 1 < k + positions; ++w) {
    for (size_t q = 0; q < phases.size(); ++q) {
      // Steps p of this phase with a chunk w - p in [0, k).
      const int64_t lo = std::max<int64_t>(first[q], int64_t(w) - int64_t(k) + 1);
      const int64_t hi = std::min<int64_t>(first[q + 1] - 1, w);
      if (hi < lo) continue;
      const double bytes = phases[q].bytes * double(hi - lo + 1);
      const bool pipelined = hi != int64_t(w);  // chunk 0 is at step w when the phase holds it
      for (const auto& ring : *phases[q].groups)
        for (size_t i = 0; i < ring.size(); ++i)
          waves.transfers.push_back(
              {ring[i], ring[(i + 1) % ring.size()], core::Bytes(bytes), w, {}, pipelined});
    }
  }
  auto out = repeated_steps(waves);
  return {"hierarchical", std::move(out)};
}

std::optional<core::Seconds> HierarchicalCollective::estimate(const CollectiveRequest& request,
                                                              hw::CollectiveProtocol protocol,
                                                              RouteMeasurements& routes) const {
  const auto shape = routes.reduction_domains(protocol);
  if (!shape) return std::nullopt;
  const auto& [inside, between] = shape->links;
  const double d = shape->domains, m = shape->members, S = request.bytes.value();
  const double k = options_.chunks_for(S);
  const double phases = request.kind == CollectiveKind::kAllReduce ? 2 : 1;
  const double intra = (m - 1) * (inside.alpha + S / k / m / inside.bandwidth);
  const double inter = (d - 1) * (between.alpha + S / k / m / d / between.bandwidth);
  const double pace =
      phases * std::max((m - 1) * S / k / m / inside.bandwidth, (d - 1) * S / k / m / d / between.bandwidth);
  return core::Seconds(phases * (intra + inter) + (k - 1) * pace);
}

}  // namespace zs::policy
