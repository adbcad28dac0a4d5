// Direct and pairwise-exchange all-to-all schedules.
#include "policy/all_to_all.hpp"

#include "policy/ring_collective.hpp"

namespace zs::policy {

double all_to_all_bytes(const CollectiveRequest& request, uint32_t s, uint32_t d) {
  if (!request.peer_bytes.empty()) return request.peer_bytes[s][d];
  return request.bytes.value() / double(request.member_units.size());
}

CollectiveSchedule direct_all_to_all(const CollectiveRequest& request) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "direct";
  s.steps = n > 1 ? 1 : 0;
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      const double bytes = all_to_all_bytes(request, i, j);
      if (i != j && bytes > 0) s.transfers.push_back({i, j, core::Bytes(bytes), 0, {}});
    }
  return s;
}

CollectiveSchedule pairwise_all_to_all(const CollectiveRequest& request) {
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "pairwise";
  s.steps = n > 1 ? n - 1 : 0;
  std::vector<int64_t> last_send(n, -1);
  for (uint32_t k = 1; k < n; ++k)
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = (i + k) % n;
      Transfer t{i, j, core::Bytes(all_to_all_bytes(request, i, j)), k - 1, {}};
      if (last_send[i] >= 0) t.after.push_back(static_cast<uint32_t>(last_send[i]));
      last_send[i] = static_cast<int64_t>(s.transfers.size());
      s.transfers.push_back(std::move(t));
    }
  return s;
}

CollectiveSchedule PairwiseCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == workload::CollectiveKind::kAllToAll) return pairwise_all_to_all(request);
  return RingCollective().schedule(request);
}

}  // namespace zs::policy
