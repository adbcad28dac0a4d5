// Binomial-tree reduce, broadcast and all-reduce schedules.
#include "policy/collective/tree_collective.hpp"

#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
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

}  // namespace zs::policy
