// Runs another collective policy's reductions and gathers under a collective library protocol (LL, LL128,
// Simple): the one a scenario names, or per collective the one with the least estimate.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Wraps a collective policy: its all-reduce, reduce-scatter, all-gather, broadcast and reduce schedules
/// run under one protocol (every transfer's Transfer::protocol set, its bytes divided by the protocol's
/// hw::bandwidth_fraction: what it puts on the wire at the links' rate). All-to-all stays Simple (NCCL
/// runs it as grouped point-to-point sends, outside its collective tuner). Under ProtocolSetting::kAuto
/// the protocol is the one whose estimate of the wrapped policy's steps is least, as NCCL's tuner picks
/// by latency + bytes / bandwidth: per step, the slowest route's latency, at least the mean step latency
/// under the protocol of its transfers that are not pipelined, plus the busiest link direction's bytes
/// over the protocol's fraction of its bandwidth (the step's transfers sharing links; steps of more than
/// 4,096 transfers sampled evenly). Other collectives in flight are not seen, as NCCL's tuner does not
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

  /// The estimate of `steps` of `request` under `protocol`, s (as the class comment says).
  static double estimate(const CollectiveRequest& request, const std::vector<RepeatedStep>& steps,
                         hw::CollectiveProtocol protocol);

 private:
  /// The protocol for `request`, whose wrapped steps are `steps`.
  hw::CollectiveProtocol protocol_for(const CollectiveRequest& request,
                                      const std::vector<RepeatedStep>& steps) const;

  std::unique_ptr<CollectivePolicy> inner_;
  ProtocolSetting setting_;
};

}  // namespace zs::policy
