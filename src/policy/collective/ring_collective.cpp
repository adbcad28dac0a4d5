// Ring collective schedules.
#include "policy/collective/ring_collective.hpp"

#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/route_measurements.hpp"

namespace zs::policy {

CollectiveSchedule RingCollective::schedule(const CollectiveRequest& request) const {
  using workload::CollectiveKind;
  const auto n = static_cast<uint32_t>(request.member_units.size());
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto steps = ring_step_count(request.kind, n);
  if (!steps)
    throw std::invalid_argument("the ring policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  CollectiveSchedule s;
  s.algorithm = "ring";
  s.steps = *steps;
  if (n <= 1) {
    s.steps = 0;
    return s;
  }
  const core::Bytes chunk = request.bytes / double(n);
  s.transfers.reserve(size_t(s.steps) * n);
  for (uint32_t k = 0; k < s.steps; ++k) {
    for (uint32_t i = 0; i < n; ++i) {
      Transfer t{i, (i + 1) % n, chunk, k, {}};
      if (k > 0) {
        t.after.push_back((k - 1) * n + (i + n - 1) % n);  // the chunk this member received last step
        t.after.push_back((k - 1) * n + i);                // this member's own previous send
      }
      s.transfers.push_back(std::move(t));
    }
  }
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> RingCollective::steps(
    const CollectiveRequest& request) const {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const auto repeat = ring_step_count(request.kind, n);
  if (!repeat) return CollectivePolicy::steps(request);  // all-to-all (direct) and the errors
  if (n <= 1) return {"ring", {}};
  RepeatedStep step;
  step.repeat = *repeat;
  for (uint32_t i = 0; i < n; ++i)
    step.transfers.push_back({i, (i + 1) % n, request.bytes / double(n), 0, {}});
  return {"ring", {std::move(step)}};
}

std::optional<hw::LibraryAlgorithm> RingCollective::library_algorithm(
    const CollectiveRequest& request) const {
  return ring_library_algorithm(request);
}

std::optional<std::string> RingCollective::nccl_algorithm(const CollectiveRequest& request) const {
  return nccl_algorithm_applies(request.kind) ? std::optional<std::string>("Ring") : std::nullopt;
}

std::optional<hw::LibraryAlgorithm> ring_library_algorithm(const CollectiveRequest& request) {
  if (!ring_step_count(request.kind, 2)) return std::nullopt;
  return hw::LibraryAlgorithm::kRing;
}

std::optional<uint32_t> ring_step_count(workload::CollectiveKind kind, uint32_t n) {
  switch (kind) {
    case workload::CollectiveKind::kAllReduce:
      return 2 * (n - 1);
    case workload::CollectiveKind::kReduceScatter:
    case workload::CollectiveKind::kAllGather:
      return n - 1;
    default:
      return std::nullopt;
  }
}

std::optional<core::Seconds> RingCollective::estimate(const CollectiveRequest& request,
                                                      hw::CollectiveProtocol protocol,
                                                      RouteMeasurements& routes) const {
  using workload::CollectiveKind;
  const double n = double(request.member_units.size()), S = request.bytes.value();
  if (request.kind == CollectiveKind::kAllReduce) {
    const AlphaBeta r = routes.ring().under(protocol);
    return core::Seconds(2 * (n - 1) * r.alpha + 2 * (n - 1) / n * S / r.bandwidth);
  }
  if (request.kind == CollectiveKind::kReduceScatter || request.kind == CollectiveKind::kAllGather) {
    const AlphaBeta r = routes.ring().under(protocol);
    return core::Seconds((n - 1) * r.alpha + (n - 1) / n * S / r.bandwidth);
  }
  return std::nullopt;
}

}  // namespace zs::policy
