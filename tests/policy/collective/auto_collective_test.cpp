// The auto collective policy: what it picks, and that it says so.
#include <doctest/doctest.h>

#include "policy/collective/auto_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/in_network_collective.hpp"
#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/collective/tree_collective.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {
std::string pick(CollectiveKind kind, uint32_t n, double bytes) {
  static const auto machine = test::single_switch_machine(64, test::unit_model("1PFLOPS", 1, "0s"),
                                                          test::link_model("100GB/s", "1us"));
  policy::CollectiveRequest req{kind, core::Bytes(bytes), {}, &machine};
  for (uint32_t i = 0; i < n; ++i) req.member_units.push_back(machine.topology.units()[i]);
  return policy::AutoCollective().schedule(req).algorithm;
}
}  // namespace

TEST_CASE(
    "auto: latency-bound collectives go to the tree or recursive doubling, bandwidth-bound to the ring") {
  CHECK(pick(CollectiveKind::kAllReduce, 64, 4096) ==
        "auto:recursive");  // 2 lg n alpha beats 2 lg n (alpha + S/B)
  // Large: on one switch, recursive halving/doubling moves what the ring moves in fewer steps...
  CHECK(pick(CollectiveKind::kAllReduce, 64, 1e9) == "auto:recursive");
  // ...but folding 48 members onto 32 costs two full-buffer transfers more: the ring wins.
  CHECK(pick(CollectiveKind::kAllReduce, 48, 1e9) == "auto:ring");
  CHECK(pick(CollectiveKind::kAllReduce, 48, 4096) == "auto:tree");
  CHECK(pick(CollectiveKind::kAllGather, 64, 4096) == "auto:recursive");
  CHECK(pick(CollectiveKind::kAllGather, 48, 4096) ==
        "auto:ring");  // recursive all-gather needs a power of two
  CHECK(pick(CollectiveKind::kBroadcast, 64, 4096) == "auto:tree");
  CHECK(pick(CollectiveKind::kAllToAll, 8, 4096) == "auto:direct");
  CHECK(pick(CollectiveKind::kAllReduce, 1, 4096) == "auto:ring");
}

TEST_CASE("auto on a ring of links: recursive exchanges share links, so the ring wins large all-reduces") {
  // Eight units in a ring, each joined to the next by one 100 GB/s link (a one-dimensional torus). The
  // ring's neighbour transfers each cross one link direction alone; recursive halving's exchanges at
  // distance 4 cross 4 links each, 32 link crossings on 16 directions, so every direction is shared by
  // two and the exchange runs at half bandwidth. Without counting that sharing, recursive's fewer steps
  // looked cheaper (three times ring's time on a torus).
  topology::Machine machine;
  machine.name = "ring-8";
  machine.generator = "test";
  machine.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  machine.link_models.push_back(test::link_model("100GB/s", "1us"));
  std::vector<topology::NodeId> units;
  for (int i = 0; i < 8; ++i) units.push_back(machine.topology.add_unit("unit" + std::to_string(i), 0));
  for (int i = 0; i < 8; ++i) machine.topology.add_link(units[i], units[(i + 1) % 8], 0);
  policy::CollectiveRequest req{CollectiveKind::kAllReduce, core::Bytes(1e9), units, &machine};
  CHECK(policy::AutoCollective().schedule(req).algorithm == "auto:ring");
}

TEST_CASE(
    "each built-in policy estimates its own closed form, and none where it has no schedule of its own") {
  const auto machine = test::single_switch_machine(8, test::unit_model("1PFLOPS", 1, "0s"),
                                                   test::link_model("100GB/s", "1us"));
  const double S = 1e8, B = 100e9, n = 8;
  auto request = [&](CollectiveKind kind, uint32_t members) {
    const auto& units = machine.topology.units();
    return policy::CollectiveRequest{kind, core::Bytes(S),
                                     std::vector<topology::NodeId>(units.begin(), units.begin() + members),
                                     &machine};
  };
  auto estimate = [](const policy::CollectivePolicy& p, const policy::CollectiveRequest& r) {
    policy::RouteMeasurements routes(r);
    return p.estimate(r, hw::CollectiveProtocol::kSimple, routes);
  };
  const auto all_reduce = request(CollectiveKind::kAllReduce, 8);
  const double alpha = policy::RouteMeasurements(all_reduce).all().alpha;  // two 1 us links
  CHECK(alpha == doctest::Approx(2e-6));
  CHECK(estimate(policy::RingCollective(), all_reduce)->value() ==
        doctest::Approx(2 * (n - 1) * alpha + 2 * (n - 1) / n * S / B));
  CHECK(estimate(policy::RecursiveCollective(), all_reduce)->value() ==
        doctest::Approx(2 * 3 * alpha + 2 * (n - 1) / n * S / B));
  CHECK(estimate(policy::TreeCollective(), all_reduce)->value() == doctest::Approx(2 * 3 * (alpha + S / B)));
  const auto gather = request(CollectiveKind::kAllGather, 8);
  CHECK(estimate(policy::RingCollective(), gather)->value() ==
        doctest::Approx((n - 1) * alpha + (n - 1) / n * S / B));
  CHECK_FALSE(estimate(policy::TreeCollective(), gather));
  CHECK_FALSE(estimate(policy::DoubleBinaryTreeCollective(), gather));
  CHECK_FALSE(estimate(policy::RecursiveCollective(), request(CollectiveKind::kAllGather, 6)));
  CHECK_FALSE(estimate(policy::InNetworkCollective(), all_reduce));     // the switch does not reduce
  CHECK_FALSE(estimate(policy::HierarchicalCollective(), all_reduce));  // one domain
  CHECK_FALSE(estimate(policy::PairwiseCollective(), all_reduce));
  CHECK_FALSE(estimate(policy::AutoCollective(), all_reduce));  // a chooser, not a candidate
}
