// A plan search's communication costs: each collective by its policy's own estimate on the machine's links.
#include "search/collective_estimator.hpp"

#include <algorithm>
#include <limits>

#include "policy/collective/route_measurements.hpp"

namespace zs::search {
namespace {

/// Shift permutations an all-to-all is costed from: all of them up to this many members, this many beyond.
constexpr uint32_t kShifts = 16;

}  // namespace

CollectiveEstimator::CollectiveEstimator(
    const topology::Machine& machine, const policy::CollectivePolicy& policy,
    const std::vector<std::unique_ptr<policy::CollectivePolicy>>& alternatives,
    policy::ProtocolSetting protocol)
    : machine_(machine),
      policy_(policy),
      alternatives_(alternatives),
      contention_(machine),
      routers_(machine) {
  switch (protocol) {
    case policy::ProtocolSetting::kSimple:
      protocols_ = {hw::CollectiveProtocol::kSimple};
      break;
    case policy::ProtocolSetting::kLl128:
      protocols_ = {hw::CollectiveProtocol::kLl128};
      break;
    case policy::ProtocolSetting::kLl:
      protocols_ = {hw::CollectiveProtocol::kLl};
      break;
    case policy::ProtocolSetting::kAuto:
      protocols_.assign(hw::kCollectiveProtocols.begin(), hw::kCollectiveProtocols.end());
      break;
  }
}

double CollectiveEstimator::collective(workload::CollectiveKind kind, double bytes,
                                       const GroupUnits& groups) {
  const auto& units = groups.first;
  if (units.size() < 2 || bytes <= 0) return 0.0;
  const auto key = std::make_tuple(int(kind), bytes, groups.hash, units.size());
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  Measured& m = measured(kind, groups);
  m.request.bytes = core::Bytes(bytes);  // the routes measured do not depend on the size
  double seconds = 0;
  if (kind == workload::CollectiveKind::kAllToAll) {
    seconds = all_to_all(m, groups);
  } else {
    seconds = estimate(m);
    const double n = double(units.size());
    const double steps = kind == workload::CollectiveKind::kAllReduce ? 2 * (n - 1) : n - 1;
    const auto [alone, with] = contention_.drain(groups, {1});
    seconds += (with - alone) * bytes / n * steps;
  }
  cache_.emplace(key, seconds);
  return seconds;
}

CollectiveEstimator::Measured& CollectiveEstimator::measured(workload::CollectiveKind kind, const GroupUnits& groups) {
  auto& slot = measured_[std::make_tuple(int(kind), groups.hash, groups.first.size())];
  if (!slot) {
    slot = std::make_unique<Measured>();
    slot->request = policy::CollectiveRequest{kind, core::Bytes(0.0), groups.first, &machine_};
    slot->routes.emplace(slot->request, &routers_);
  }
  return *slot;
}

double CollectiveEstimator::estimate(Measured& m) {
  const policy::CollectiveRequest& request = m.request;
  policy::RouteMeasurements& routes = *m.routes;
  auto least = [&](const policy::CollectivePolicy& p) {
    std::optional<double> best;
    for (auto protocol : protocols_)
      if (auto t = policy::estimated_time(p, request, protocol, routes))
        best = std::min(best.value_or(t->value()), t->value());
    return best;
  };
  if (auto own = least(policy_)) return *own;
  std::optional<double> best;
  for (const auto& alternative : alternatives_)
    if (auto t = least(*alternative)) best = std::min(best.value_or(*t), *t);
  if (best) return *best;
  // No policy estimates this kind (broadcast or reduce without a tree): a ring's pipeline over the
  // narrowest route.
  const policy::AlphaBeta& all = routes.all();
  const double n = double(request.member_units.size());
  return (n - 1) * all.alpha + (n - 1) / n * request.bytes.value() / all.bandwidth;
}

double CollectiveEstimator::all_to_all(Measured& m, const GroupUnits& groups) {
  const auto n = static_cast<uint32_t>(m.request.member_units.size());
  std::vector<uint32_t> shifts;
  const uint32_t count = std::min(n - 1, kShifts);
  for (uint32_t k = 0; k < count; ++k)
    shifts.push_back(1 + static_cast<uint32_t>(uint64_t(k) * (n - 1) / count));
  const double with = contention_.drain(groups, shifts).second;
  return m.routes->all().alpha + with * m.request.bytes.value() / n * double(n - 1) / double(count);
}

double CollectiveEstimator::transfer(double bytes, topology::NodeId a, topology::NodeId b) {
  if (a == b || bytes <= 0) return 0.0;
  const std::vector<topology::NodeId> ends{a, b};
  const auto key = std::make_tuple(-1, bytes, (uint64_t(a) << 32) | b, ends.size());
  if (auto it = cache_.find(key); it != cache_.end()) return it->second;
  policy::CollectiveRequest request{workload::CollectiveKind::kAllToAll, core::Bytes(bytes), ends, &machine_};
  policy::RouteMeasurements routes(request, &routers_);
  const policy::AlphaBeta& route = routes.all();
  const double seconds = route.alpha + bytes / route.bandwidth;
  cache_.emplace(key, seconds);
  return seconds;
}

}  // namespace zs::search
