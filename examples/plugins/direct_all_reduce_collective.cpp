// Example collective plugin: all-reduce as one direct reduce-scatter step and one direct all-gather step.
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/plugin_api.hpp"

namespace {

using zs::policy::CollectiveRequest;
using zs::policy::CollectiveSchedule;
using zs::policy::Transfer;
using zs::workload::CollectiveKind;

/// Every member sends S/n to every other member at once, twice: first its shard of each peer's part
/// (reduce-scatter), then, once all of its own part has arrived, its reduced shard to every peer
/// (all-gather). Two steps whatever n (latency-optimal), n(n-1) transfers each: refused beyond 4096
/// members. Reduce-scatter and all-gather alone are one of the two steps; all-to-all is direct; other
/// kinds use the ring. It offers `auto` its estimate for up to 64 members: each step alpha + (S/n)/b, b the
/// narrowest share of a link any of the step's n(n-1) transfers gets (on a non-blocking switch B/(n-1):
/// an all-reduce then takes 2 alpha + 2(n-1)/n S/B).
class DirectAllReduce : public zs::policy::CollectivePolicy {
 public:
  std::string_view name() const override { return "direct-all-reduce"; }

  CollectiveSchedule schedule(const CollectiveRequest& request) const override {
    const auto n = static_cast<uint32_t>(request.member_units.size());
    if (n > 4096) throw std::invalid_argument("direct-all-reduce schedules at most 4096 members");
    switch (request.kind) {
      case CollectiveKind::kAllReduce:
        return direct(request, true, true);
      case CollectiveKind::kReduceScatter:
        return direct(request, true, false);
      case CollectiveKind::kAllGather:
        return direct(request, false, true);
      case CollectiveKind::kAllToAll:
        return zs::policy::direct_all_to_all(request);
      default:
        return zs::policy::RingCollective().schedule(request);
    }
  }

  std::optional<zs::core::Seconds> estimate(const CollectiveRequest& request,
                                            zs::hw::CollectiveProtocol protocol,
                                            zs::policy::RouteMeasurements& routes) const override {
    const auto n = static_cast<uint32_t>(request.member_units.size());
    double steps = 0;
    if (request.kind == CollectiveKind::kAllReduce) steps = 2;
    if (request.kind == CollectiveKind::kReduceScatter || request.kind == CollectiveKind::kAllGather)
      steps = 1;
    if (steps == 0 || n > 64) return std::nullopt;
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = 0; j < n; ++j)
        if (i != j) pairs.emplace_back(i, j);
    const zs::policy::AlphaBeta step = routes.step(pairs).under(protocol);
    return zs::core::Seconds(steps * (step.alpha + request.bytes.value() / n / step.bandwidth));
  }

 private:
  static CollectiveSchedule direct(const CollectiveRequest& request, bool scatter, bool gather) {
    const auto n = static_cast<uint32_t>(request.member_units.size());
    const zs::core::Bytes shard(request.bytes.value() / n);
    CollectiveSchedule s;
    s.algorithm = "direct";
    if (n < 2) return s;
    std::vector<std::vector<uint32_t>> into(n);  // the scatter transfers each member receives
    if (scatter) {
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j)
          if (i != j) {
            into[j].push_back(static_cast<uint32_t>(s.transfers.size()));
            s.transfers.push_back(Transfer{i, j, shard, 0, {}});
          }
      s.steps = 1;
    }
    if (gather) {
      const uint32_t step = s.steps;
      for (uint32_t j = 0; j < n; ++j)
        for (uint32_t i = 0; i < n; ++i)
          if (i != j) s.transfers.push_back(Transfer{j, i, shard, step, into[j]});
      s.steps += 1;
    }
    return s;
  }
};

void add_policies(zs::policy::PolicyCatalog& catalog) {
  catalog.collective.add(
      "direct-all-reduce",
      "all-reduce as a direct reduce-scatter then a direct all-gather: 2 steps, n(n-1) transfers each "
      "(example plugin)",
      [](const zs::policy::CollectiveOptions&, const zs::policy::CollectiveRegistry&) {
        return std::make_unique<DirectAllReduce>();
      });
}

}  // namespace

ZETTASIM_PLUGIN("example-collective", add_policies)
