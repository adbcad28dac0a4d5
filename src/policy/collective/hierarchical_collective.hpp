// Hierarchical collectives: inside each fast domain (NVLink island, leaf switch) first, then across.
#pragma once

#include <optional>
#include <vector>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// The members grouped by domain (topology::domain_switch of their units), domains in order of their
/// first member and members in communicator order. Empty unless there are at least two domains, all of
/// the same size m >= 2.
std::vector<std::vector<uint32_t>> member_domains(const CollectiveRequest& request);

/// d domains of m members, as NCCL does across NVLink and the network:
/// - all-reduce: ring reduce-scatter inside each domain (m-1 steps of S/m), ring all-reduce across
///   domains among the members with the same place in their domain (2(d-1) steps of S/(md)), ring
///   all-gather inside each domain: 2(m-1)(alpha_i + S/(m B_i)) + 2(d-1)(alpha_e + S/(md B_e));
/// - reduce-scatter: inside, then across (S/m); all-gather: across, then inside;
/// - all-to-all: each member first sends to the member of its own domain with the place of the
///   destination everything bound for that place in every domain, then the members with the same place
///   exchange across domains (d-1 transfers of m times the per-peer bytes each): the network carries
///   m times fewer, larger messages.
/// Groups that are not such domains fall back to the ring (all-to-all: direct), reported as such.
class HierarchicalCollective final : public CollectivePolicy {
 public:
  explicit HierarchicalCollective(CollectiveOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "hierarchical"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// Waves of the pipeline (ring step p of chunk w - p), each phase's transfers merged over its steps in
  /// flight: at most k + steps waves of (phases x n) transfers, where the schedule has k x steps x n.
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  /// For all-reduce, reduce-scatter and all-gather on members that form domains: rings inside the
  /// domains and across them, pipelined in k chunks: one chunk through every phase, then k - 1 more at
  /// the pace of the busier of the domain links and the network links (RouteMeasurements::domain_links).
  /// None otherwise (the hierarchical all-to-all is chosen by naming it).
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;

 private:
  CollectiveOptions options_;
};

}  // namespace zs::policy
