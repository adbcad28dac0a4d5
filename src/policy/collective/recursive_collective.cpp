// Recursive halving/doubling (Rabenseifner) schedules.
#include "policy/collective/recursive_collective.hpp"

#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/collective/schedule_builder.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

uint32_t floor_power_of_two(uint32_t n) {
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/// Recursive halving over members [0, p) (p a power of two): after it member i holds block i of S.
void halving(ScheduleBuilder& b, uint32_t p, double bytes) {
  for (uint32_t distance = p / 2; distance >= 1; distance /= 2) {
    bytes /= 2;
    for (uint32_t i = 0; i < p; ++i) b.send(i, i ^ distance, bytes);
    b.end_step();
  }
}

/// Recursive doubling over members [0, p): from blocks of S/p to the whole S on every member.
void doubling(ScheduleBuilder& b, uint32_t p, double bytes) {
  double block = bytes / p;
  for (uint32_t distance = 1; distance < p; distance *= 2) {
    for (uint32_t i = 0; i < p; ++i) b.send(i, i ^ distance, block);
    b.end_step();
    block *= 2;
  }
}

}  // namespace

CollectiveSchedule RecursiveCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "recursive";
  if (!reduces_or_gathers(request.kind))
    throw std::invalid_argument("the recursive policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  if (n <= 1) return s;
  const uint32_t p = floor_power_of_two(n);
  if (p != n && request.kind != CollectiveKind::kAllReduce)
    throw std::invalid_argument("recursive " + std::string(workload::to_string(request.kind)) +
                                " needs a power-of-two communicator, not " + std::to_string(n) + " members");
  const double S = request.bytes.value();
  ScheduleBuilder b(s, n);
  if (p != n) {  // fold the extra members onto the first ones
    for (uint32_t e = p; e < n; ++e) b.send(e, e - p, S);
    b.end_step();
  }
  if (request.kind != CollectiveKind::kAllGather) halving(b, p, S);
  if (request.kind != CollectiveKind::kReduceScatter) doubling(b, p, S);
  if (p != n) {
    for (uint32_t e = p; e < n; ++e) b.send(e - p, e, S);
    b.end_step();
  }
  return s;
}

std::optional<core::Seconds> RecursiveCollective::estimate(const CollectiveRequest& request,
                                                           hw::CollectiveProtocol protocol,
                                                           RouteMeasurements& routes) const {
  using workload::CollectiveKind;
  const auto n = static_cast<uint32_t>(request.member_units.size());
  const uint32_t p = recursive_members(request);
  const bool scatter_or_gather =
      request.kind == CollectiveKind::kReduceScatter || request.kind == CollectiveKind::kAllGather;
  if (request.kind != CollectiveKind::kAllReduce && !(scatter_or_gather && p == n)) return std::nullopt;
  const auto& rounds = routes.recursive_rounds();
  const double S = request.bytes.value();
  const AlphaBeta all = routes.all().under(protocol);
  double t = p == n ? 0 : 2 * (all.alpha + S / all.bandwidth);
  if (request.kind != CollectiveKind::kAllGather) {
    double bytes = S;
    for (size_t j = rounds.size(); j-- > 0;) {
      bytes /= 2;
      const AlphaBeta r = rounds[j].under(protocol);
      t += r.alpha + bytes / r.bandwidth;
    }
  }
  if (request.kind != CollectiveKind::kReduceScatter) {
    double block = S / p;
    for (const auto& round : rounds) {
      const AlphaBeta r = round.under(protocol);
      t += r.alpha + block / r.bandwidth;
      block *= 2;
    }
  }
  return core::Seconds(t);
}

}  // namespace zs::policy
