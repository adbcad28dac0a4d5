// Direct and pairwise-exchange all-to-all schedules.
#include "policy/collective/pairwise_collective.hpp"

#include <algorithm>

#include "policy/collective/ring_collective.hpp"

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
  // Step k's transfer from member i sits at index (k-1)n + i. Each step is a send-receive pair that
  // completes before the next begins (MPI's pairwise exchange), and a large message flows only once
  // its receiver has posted the receive, i.e. finished its own previous step: so a transfer waits for
  // the previous step's send and receive of both its ends.
  s.transfers.reserve(size_t(n) * (n > 0 ? n - 1 : 0));
  for (uint32_t k = 1; k < n; ++k)
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = (i + k) % n;
      Transfer t{i, j, core::Bytes(all_to_all_bytes(request, i, j)), k - 1, {}};
      if (k > 1) {
        const uint32_t previous = (k - 2) * n;
        const uint32_t back = k - 1;  // a member received from the member this far behind it
        for (uint32_t end : {i, j}) {
          t.after.push_back(previous + end);                   // its own send last step
          t.after.push_back(previous + (end + n - back) % n);  // the send it received last step
        }
        std::sort(t.after.begin(), t.after.end());
        t.after.erase(std::unique(t.after.begin(), t.after.end()), t.after.end());
      }
      s.transfers.push_back(std::move(t));
    }
  return s;
}

CollectiveSchedule PairwiseCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == workload::CollectiveKind::kAllToAll) return pairwise_all_to_all(request);
  return RingCollective().schedule(request);
}

}  // namespace zs::policy
