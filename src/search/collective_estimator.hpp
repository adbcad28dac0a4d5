// A plan search's communication costs: each collective by its policy's own estimate on the machine's links.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <tuple>
#include <vector>

#include "policy/collective/collective_policy.hpp"
#include "policy/collective/route_measurements.hpp"
#include "search/copy_contention.hpp"
#include "topology/machine.hpp"
#include "workload/trace.hpp"

namespace zs::search {

/// Closed-form times of collectives and transfers on placed members, cached per (kind, bytes, members).
/// A collective costs what its policy estimates (CollectivePolicy::estimate plus its base latency) under
/// the scenario's protocol, the least over the three protocols under "auto"; a policy that offers no
/// estimate (the `auto` policy itself, a plugin without one) is replaced by the least estimate of the
/// catalog's policies, as `auto` picks. The communicator's other groups running the same collective at
/// once add what they put on the links the first group's ring crosses (CopyContention, one neighbour
/// step, times the ring's steps), whatever the policy's algorithm. All-to-all, which no policy estimates,
/// costs the direct exchange: every member sends S/n to each other at once, drained through the busiest
/// link direction with the other groups' exchanges (every shift up to 16 members, 16 evenly spaced
/// shifts scaled to all beyond), plus the slowest route's latency. Other communicators' traffic in
/// flight is not seen (the engine sees it).
class CollectiveEstimator {
 public:
  /// `policy` and `alternatives` must outlive the estimator, as must `machine`.
  CollectiveEstimator(const topology::Machine& machine, const policy::CollectivePolicy& policy,
                      const std::vector<std::unique_ptr<policy::CollectivePolicy>>& alternatives,
                      policy::ProtocolSetting protocol);

  /// A collective of `bytes` per member (S) over the first of `groups` (units in communicator order), with
  /// the others at the same time, s.
  double collective(workload::CollectiveKind kind, double bytes, const GroupUnits& groups);
  /// A point-to-point transfer of `bytes` from unit `a` to unit `b` alone: route latency + bytes over
  /// its narrowest link, s.
  double transfer(double bytes, topology::NodeId a, topology::NodeId b);
  /// Distinct collectives and transfers costed so far.
  uint64_t patterns() const { return cache_.size(); }

 private:
  /// A request of one kind over one set of groups and its routes, measured once: a policy's estimate reads
  /// the size from the request and the routes from the measurements, which do not depend on it.
  struct Measured {
    policy::CollectiveRequest request;
    std::optional<policy::RouteMeasurements> routes;
  };
  Measured& measured(workload::CollectiveKind kind, const GroupUnits& groups);
  double estimate(Measured& m);
  double all_to_all(Measured& m, const GroupUnits& groups);

  const topology::Machine& machine_;
  const policy::CollectivePolicy& policy_;
  const std::vector<std::unique_ptr<policy::CollectivePolicy>>& alternatives_;
  std::vector<hw::CollectiveProtocol> protocols_;
  CopyContention contention_;
  policy::RouteMeasurements::SharedRouters routers_;
  std::map<std::tuple<int, double, uint64_t, size_t>, double> cache_;
  std::map<std::tuple<int, uint64_t, size_t>, std::unique_ptr<Measured>> measured_;
};

}  // namespace zs::search
