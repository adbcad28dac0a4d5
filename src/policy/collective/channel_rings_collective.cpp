// NCCL-style channel rings across domains.
#include "policy/collective/channel_rings_collective.hpp"

#include <algorithm>
#include <stdexcept>

#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/route_measurements.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// Ring steps of `kind` over n members; throws for kinds a ring does not implement.
uint32_t ring_steps_of(CollectiveKind kind, uint32_t n) {
  const auto steps = ring_step_count(kind, n);
  if (!steps)
    throw std::invalid_argument("the rings policy does not implement " +
                                std::string(workload::to_string(kind)));
  return *steps;
}

/// The m rings of `domains` (d domains of m members), each as members in ring order: ring c visits
/// domain D from its member (c - D) mod m.
std::vector<std::vector<uint32_t>> channel_rings(const std::vector<std::vector<uint32_t>>& domains) {
  const size_t d = domains.size(), m = domains.front().size();
  std::vector<std::vector<uint32_t>> rings(m);
  for (size_t c = 0; c < m; ++c)
    for (size_t D = 0; D < d; ++D) {
      const size_t start = (c + m * d - D) % m;
      for (size_t j = 0; j < m; ++j) rings[c].push_back(domains[D][(start + j) % m]);
    }
  return rings;
}

}  // namespace

CollectiveSchedule ChannelRingsCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const uint32_t steps = ring_steps_of(request.kind, n);
  const auto domains = member_domains(request);
  if (domains.empty()) return RingCollective().schedule(request);
  const auto rings = channel_rings(domains);
  const auto m = static_cast<uint32_t>(rings.size());
  const core::Bytes chunk = request.bytes / (double(m) * n);
  CollectiveSchedule s;
  s.algorithm = "rings";
  s.steps = steps;
  s.transfers.reserve(size_t(steps) * m * n);
  // Transfer of ring c, step k, from ring position i: (k m + c) n + i.
  for (uint32_t k = 0; k < steps; ++k)
    for (uint32_t c = 0; c < m; ++c)
      for (uint32_t i = 0; i < n; ++i) {
        Transfer t{rings[c][i], rings[c][(i + 1) % n], chunk, k, {}};
        if (k > 0) {
          const uint32_t previous = ((k - 1) * m + c) * n;
          t.after.push_back(previous + (i + n - 1) % n);  // the chunk this member received last step
          t.after.push_back(previous + i);                // this member's own previous send in the ring
        }
        s.transfers.push_back(std::move(t));
      }
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> ChannelRingsCollective::steps(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return CollectivePolicy::steps(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const uint32_t repeat = ring_steps_of(request.kind, n);
  const auto domains = member_domains(request);
  if (domains.empty()) return RingCollective().steps(request);
  const auto rings = channel_rings(domains);
  RepeatedStep step;
  step.repeat = repeat;
  const core::Bytes chunk = request.bytes / (double(rings.size()) * n);
  for (const auto& ring : rings)
    for (uint32_t i = 0; i < n; ++i) step.transfers.push_back({ring[i], ring[(i + 1) % n], chunk, 0, {}});
  return {"rings", {std::move(step)}};
}

std::optional<std::string> ChannelRingsCollective::nccl_algorithm(const CollectiveRequest& request) const {
  return nccl_algorithm_applies(request.kind) ? std::optional<std::string>("Ring") : std::nullopt;
}

std::optional<hw::LibraryAlgorithm> ChannelRingsCollective::library_algorithm(
    const CollectiveRequest& request) const {
  return ring_library_algorithm(request);
}

std::optional<core::Seconds> ChannelRingsCollective::estimate(const CollectiveRequest& request,
                                                              hw::CollectiveProtocol protocol,
                                                              RouteMeasurements& routes) const {
  const auto shape = routes.reduction_domains(protocol);
  if (!shape) return std::nullopt;
  const auto& [inside, between] = shape->links;
  const double d = shape->domains, m = shape->members, n = d * m;
  const double S = request.bytes.value();
  const double steps = request.kind == CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1;
  return core::Seconds(steps *
                       (std::max(inside.alpha, between.alpha) +
                        std::max(S / (m * n) / between.bandwidth, (m - 1) * S / (m * n) / inside.bandwidth)));
}

}  // namespace zs::policy
