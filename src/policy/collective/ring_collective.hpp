// Ring algorithms for all-reduce, reduce-scatter and all-gather.
#pragma once

#include <cstdint>
#include <optional>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Members in communicator order form a ring; each step every member sends one chunk of S/n to its
/// successor. Reduce-scatter and all-gather take n-1 steps, all-reduce 2(n-1) (reduce-scatter then
/// all-gather). A send of step k waits for the member's send of step k-1 and for the chunk it
/// received in step k-1. On uncontended links of bandwidth B and per-transfer latency alpha this
/// gives the closed forms of nccl-tests' doc/PERFORMANCE.md, e.g. all-reduce
/// 2(n-1)alpha + 2(n-1)/n S/B. All-to-all has no ring form: it is scheduled direct, as NCCL does.
class RingCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "ring"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// One step pattern (member i to i + 1, S/n) repeated n-1 or 2(n-1) times: linear in n.
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  /// The library's ring (ring_library_algorithm).
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// NCCL's "Ring", for every kind but all-to-all.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;
  /// For all-reduce 2(n-1) alpha + 2(n-1)/n S/B, for reduce-scatter and all-gather (n-1) alpha +
  /// (n-1)/n S/B, over the neighbour exchange's shared links (RouteMeasurements::ring); none for the
  /// other kinds.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;
};

/// Steps of a ring over n members: 2(n-1) for all-reduce, n-1 for reduce-scatter and all-gather; none for
/// kinds without a ring form.
std::optional<uint32_t> ring_step_count(workload::CollectiveKind kind, uint32_t n);

/// The library's ring for the kinds with a ring form, none for the others.
std::optional<hw::LibraryAlgorithm> ring_library_algorithm(const CollectiveRequest& request);

}  // namespace zs::policy
