// Binomial-tree reduce, broadcast and all-reduce schedules.
#include "policy/collective/tree_collective.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/collective/schedule_builder.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

void binomial_reduce(ScheduleBuilder& b, uint32_t n, double bytes) {
  for (uint32_t d = 1; d < n; d *= 2) {
    for (uint32_t i = d; i < n; i += 2 * d) b.send(i, i - d, bytes);
    b.end_step();
  }
}

void binomial_broadcast(ScheduleBuilder& b, uint32_t n, double bytes) {
  uint32_t top = 1;
  while (top < n) top *= 2;
  for (uint32_t d = top / 2; d >= 1; d /= 2) {
    for (uint32_t i = 0; i + d < n; i += 2 * d) b.send(i, i + d, bytes);
    b.end_step();
  }
}

}  // namespace

CollectiveSchedule TreeCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "tree";
  const bool reduce = request.kind == CollectiveKind::kAllReduce || request.kind == CollectiveKind::kReduce;
  const bool broadcast =
      request.kind == CollectiveKind::kAllReduce || request.kind == CollectiveKind::kBroadcast;
  if (!reduce && !broadcast)
    throw std::invalid_argument("the tree policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  if (n <= 1) return s;
  ScheduleBuilder b(s, n);
  if (reduce) binomial_reduce(b, n, request.bytes.value());
  if (broadcast) binomial_broadcast(b, n, request.bytes.value());
  return s;
}

std::optional<core::Seconds> TreeCollective::estimate(const CollectiveRequest& request,
                                                      hw::CollectiveProtocol protocol,
                                                      RouteMeasurements& routes) const {
  using workload::CollectiveKind;
  const bool one_way = request.kind == CollectiveKind::kBroadcast || request.kind == CollectiveKind::kReduce;
  if (request.kind != CollectiveKind::kAllReduce && !one_way) return std::nullopt;
  const double n = double(request.member_units.size()), S = request.bytes.value();
  const double lg = std::ceil(std::log2(n)), depth = binomial_tree_depth(request.member_units.size());
  const AlphaBeta a = routes.all().under(protocol);
  if (one_way) return core::Seconds(depth * a.alpha + lg * S / a.bandwidth);
  return core::Seconds(2 * (depth * a.alpha + lg * S / a.bandwidth));
}

double binomial_tree_depth(size_t n) {
  int depth = 0;
  for (size_t i = 0; i < n; ++i) depth = std::max(depth, __builtin_popcountll(i));
  return depth;
}

}  // namespace zs::policy
