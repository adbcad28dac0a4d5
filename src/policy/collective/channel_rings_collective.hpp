// NCCL-style rings across domains: one ring per member of a domain, each leaving it from another member.
#pragma once

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// For d >= 2 domains of m >= 2 members (member_domains), m rings ("channels"), each carrying S/m. Ring c
/// visits domain D starting at its member (c - D) mod m and leaves it from member (c - D - 1) mod m,
/// which is where it enters domain D + 1: each domain boundary is crossed once by every ring, from a
/// different member each time, so the m members' network links share the crossing (on rail-optimized
/// machines, each on its own rail; the wrap from the last domain to the first stays on a rail when m
/// divides d, else it crosses rails). Each ring steps as the single ring does: all-reduce 2(n-1) steps,
/// reduce-scatter and all-gather n-1. Per step a member sends S/(m n) over the network in the ring it
/// leaves its domain in and over its domain link in the m - 1 others, so an all-reduce on uncontended
/// links takes 2(n-1)(alpha + max(S/(m n B_out), (m-1) S/(m n B_in))). Other groups: the single ring;
/// all-to-all: direct.
class ChannelRingsCollective final : public CollectivePolicy {
 public:
  std::string_view name() const override { return "rings"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// One step of m rings repeated: linear in the members.
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  /// The library's ring (ring_library_algorithm): NCCL runs its channels as one ring collective.
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// NCCL's "Ring": its channels are one NCCL ring collective.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;
  /// For all-reduce, reduce-scatter and all-gather on members that form domains: every step, S/(m n)
  /// over the network and (m - 1) of them over the domain link, whichever takes longer
  /// (RouteMeasurements::domain_links). None otherwise.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;
};

}  // namespace zs::policy
