// In-network (SHARP/NVLS-style) all-reduce, reduce-scatter and all-gather on a reducing switch.
#pragma once

#include <optional>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// When every member hangs off the same switch and that switch reduces in the network, each member sends
/// its buffer to the switch once and receives the result once, in k pipelined chunks (CollectiveOptions):
/// all-reduce sends S/k per chunk up and receives S/k down, reduce-scatter receives S/(kn), all-gather
/// sends S/(kn) and receives S/k (the switch multicasts). Data the switch reduces occupies the member's
/// uplink for 1 / reduction_efficiency of its wire time (the switch's reduction throughput, from its
/// model). A chunk goes down once every member's same chunk has arrived. On links of bandwidth B and
/// latency alpha, all-reduce takes k (alpha + S / (k eta B)) + alpha + S / (k B): about S / (eta B),
/// independent of n (collectives.md). Other groups fall back to the ring (reported as "ring"); all-to-all
/// is direct.
class InNetworkCollective final : public CollectivePolicy {
 public:
  explicit InNetworkCollective(CollectiveOptions options = {}) : options_(options) {}
  std::string_view name() const override { return "in-network"; }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  /// NCCL's "NVLS" when the shared reducing switch is a host's scale-up switch (nothing but endpoints on
  /// its ports: NVSwitch), for all-reduce, reduce-scatter and all-gather; "CollNet" on a fabric switch
  /// (SHARP), for all-reduce; "Ring" where the schedule falls back to the ring.
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override;
  /// NCCL's NVLS on a host's scale-up switch (its fixed cost, and Simple as its only protocol), the
  /// ring where the schedule falls back to it, none on a fabric switch (CollNet's costs are not modelled).
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override;
  /// When the members share a reducing switch, for all-reduce, reduce-scatter and all-gather: k chunks
  /// up at eta B, each coming down once it is reduced, the slower way pacing the chunks; the first chunk
  /// pays the step latency each way, when there is one, the others half their routes' latency (member to
  /// switch), over RouteMeasurements::all. None otherwise.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override;

 private:
  CollectiveOptions options_;
};

/// The switch that every member of the request reduces through, if they share one.
std::optional<topology::NodeId> shared_reduction_switch(const CollectiveRequest& request);

}  // namespace zs::policy
