// Runs another collective policy's reductions and gathers under a collective library protocol (LL, LL128,
// Simple): the one a scenario names, or per collective the one with the least estimate.
#pragma once

#include <array>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "policy/collective/collective_policy.hpp"
#include "topology/router.hpp"

namespace zs::policy {

/// Wraps a collective policy: its all-reduce, reduce-scatter, all-gather, broadcast and reduce schedules
/// run under one protocol (every transfer's Transfer::protocol set, its bytes divided by the protocol's
/// hw::bandwidth_fraction: what it puts on the wire at the links' rate). All-to-all stays Simple (NCCL
/// runs it as grouped point-to-point sends, outside its collective tuner). Under ProtocolSetting::kAuto
/// the protocol is the one whose estimate of the wrapped policy's steps is least, as NCCL's tuner picks
/// by latency + bytes / bandwidth: per step, the slowest route's latency, at least the mean step latency
/// under the protocol of its transfers that are not pipelined, plus the busiest link direction's bytes
/// over the protocol's fraction of its bandwidth (the step's transfers sharing links; steps of more than
/// 4,096 transfers sampled evenly), plus the wrapped policy's base latency under the protocol
/// (collective_base_latency). Other collectives in flight are not seen, as NCCL's tuner does not
/// see them. Ties go to Simple, then LL128.
/// The algorithm's name gains "/ll" or "/ll128" when the protocol is not Simple.
class ProtocolChoice final : public CollectivePolicy {
 public:
  ProtocolChoice(std::unique_ptr<CollectivePolicy> inner, ProtocolSetting setting);
  std::string_view name() const override { return inner_->name(); }
  CollectiveSchedule schedule(const CollectiveRequest& request) const override;
  std::pair<std::string, std::vector<RepeatedStep>> steps(const CollectiveRequest& request) const override;
  bool members_advance_independently(const CollectiveRequest& request) const override {
    return inner_->members_advance_independently(request);
  }
  std::optional<hw::LibraryAlgorithm> library_algorithm(const CollectiveRequest& request) const override {
    return inner_->library_algorithm(request);
  }
  std::optional<std::string> nccl_algorithm(const CollectiveRequest& request) const override {
    return inner_->nccl_algorithm(request);
  }
  /// The wrapped policy's own estimate.
  std::optional<core::Seconds> estimate(const CollectiveRequest& request, hw::CollectiveProtocol protocol,
                                        RouteMeasurements& routes) const override {
    return inner_->estimate(request, protocol, routes);
  }

  /// Per protocol (hw::CollectiveProtocol order), the estimate of `steps` of `request`, s (as the class
  /// comment says); the routes are found once for all three.
  using Estimates = std::array<double, hw::kCollectiveProtocols.size()>;
  static Estimates estimates(const CollectiveRequest& request, const std::vector<RepeatedStep>& steps);
  /// The same over `router` (lowest-id routes on the request's machine).
  static Estimates estimates(const CollectiveRequest& request, const std::vector<RepeatedStep>& steps,
                             topology::Router& router);

 private:
  /// The protocol of least estimate for `request`, whose wrapped steps are `steps` (ties: Simple, LL128).
  hw::CollectiveProtocol least_estimate(const CollectiveRequest& request,
                                        const std::vector<RepeatedStep>& steps) const;
  /// The protocol the setting names, or Simple where the wrapped policy's library algorithm does not
  /// run under it (NVLS); none under "auto".
  std::optional<hw::CollectiveProtocol> named_protocol_for(const CollectiveRequest& request) const;

  /// A router for `machine` kept between calls (its construction dominates on large machines); made
  /// anew when the machine or its failed links change. Routes do not depend on it: lowest-id paths.
  topology::Router& router_for(const topology::Machine& machine) const;

  std::unique_ptr<CollectivePolicy> inner_;
  ProtocolSetting setting_;
  mutable std::unique_ptr<topology::Router> router_;
  mutable const topology::Machine* router_machine_ = nullptr;
  mutable std::set<topology::LinkId> router_links_down_;
};

}  // namespace zs::policy
