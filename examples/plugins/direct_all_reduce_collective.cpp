// Example collective plugin: all-reduce as one direct reduce-scatter step and one direct all-gather step.
#include <memory>
#include <stdexcept>
#include <vector>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/ring_collective.hpp"
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
/// kinds use the ring.
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
      [](const zs::policy::CollectiveOptions&) { return std::make_unique<DirectAllReduce>(); });
}

}  // namespace

ZETTASIM_PLUGIN("example-collective", add_policies)
