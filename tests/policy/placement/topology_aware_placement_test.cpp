// The topology-aware placement: heavy groups inside leaves, whatever the unit listing or the mesh order.
#include <doctest/doctest.h>

#include <set>

#include "policy/placement/linear_placement.hpp"
#include "policy/placement/placement_cost.hpp"
#include "policy/placement/random_placement.hpp"
#include "policy/placement/topology_aware_placement.hpp"
#include "support/reordered_units.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// A 2-axis job: a heavy all-reduce over `heavy` (1 GB per rank) and a light one over the other axis
/// (1 MB), with `axes` in the mesh's order.
workload::Trace two_axis_job(std::vector<workload::MeshAxis> axes, const std::string& heavy) {
  workload::Trace t;
  t.name = "two-axis";
  t.mesh = workload::Mesh(axes);
  t.streams = {"comm"};
  const std::string light = axes[0].name == heavy ? axes[1].name : axes[0].name;
  auto all_reduce = [](const std::string& axis, double bytes) {
    return workload::Op{
        axis,
        "gradient-sync",
        0,
        {},
        workload::CollectiveOp{workload::CollectiveKind::kAllReduce, axis, core::Bytes(bytes)}};
  };
  t.roles = {{"rank", {all_reduce(heavy, 1e9), all_reduce(light, 1e6)}}};
  return t;
}

/// The leaf of a unit of test::tree_machine, from its name ("leafL-uK").
std::string leaf_of(const topology::Machine& m, topology::NodeId u) {
  const auto& name = m.topology.node(u).name;
  return name.substr(0, name.find('-'));
}

/// Whether every group of `size` consecutive ranks sits on one leaf.
bool groups_on_one_leaf(const topology::Machine& m, const policy::Placement& p, size_t size, size_t stride) {
  for (size_t first = 0; first < p.unit_of_rank.size(); ++first) {
    if ((first / stride) % size != 0) continue;
    std::set<std::string> leaves;
    for (size_t k = 0; k < size; ++k) leaves.insert(leaf_of(m, p.unit_of_rank[first + k * stride]));
    if (leaves.size() != 1) return false;
  }
  return true;
}

double hop_bytes(const workload::Trace& t, const topology::Machine& m, const policy::Placement& p) {
  return policy::placement_cost(t, m, p).total_hop_bytes();
}

}  // namespace

TEST_CASE("topology-aware placement keeps the linear layout where it is already the best") {
  const auto m = test::tree_machine(4, 4);
  const auto job = two_axis_job({{"dp", 4}, {"tp", 4}}, "tp");
  const auto aware = policy::TopologyAwarePlacement().place({job, m, 1});
  CHECK(aware.unit_of_rank == policy::LinearPlacement().place({job, m, 1}).unit_of_rank);
  CHECK(aware.layout.find("kept the linear layout") == 0);
}

TEST_CASE("topology-aware placement nests the heavy axis innermost when the mesh lists it outermost") {
  const auto m = test::tree_machine(4, 4);
  const auto job = two_axis_job({{"tp", 4}, {"dp", 4}}, "tp");  // tp has stride 4: linear spreads it
  const auto linear = policy::LinearPlacement().place({job, m, 1});
  const auto aware = policy::TopologyAwarePlacement().place({job, m, 1});
  CHECK_FALSE(groups_on_one_leaf(m, linear, 4, 4));
  CHECK(groups_on_one_leaf(m, aware, 4, 4));  // each tp group (ranks k, k+4, k+8, k+12) on one leaf
  CHECK(aware.layout.find("axes dp > tp on the topology's unit order") == 0);
  // tp: 2 hops instead of 4 for 1 GB rings; dp: 4 instead of 2 for 1 MB ones.
  const double tp = 16 * 2 * 3.0 / 4 * 1e9, dp = 16 * 2 * 3.0 / 4 * 1e6;
  CHECK(hop_bytes(job, m, aware) == doctest::Approx(2 * tp + 4 * dp));
  CHECK(hop_bytes(job, m, linear) == doctest::Approx(4 * tp + 2 * dp));
}

TEST_CASE("topology-aware placement recovers the leaves of a machine that lists its units across them") {
  const auto tree = test::tree_machine(4, 4);
  // Listed i -> unit 7i mod 16: no nesting of the axes puts a group of 4 on one leaf.
  std::vector<topology::NodeId> scrambled;
  for (size_t i = 0; i < 16; ++i) scrambled.push_back(tree.topology.units()[7 * i % 16]);
  const auto m = test::with_units_listed(tree, scrambled);
  const auto job = two_axis_job({{"dp", 4}, {"tp", 4}}, "tp");
  const auto linear = policy::LinearPlacement().place({job, m, 1});
  const auto random = policy::RandomPlacement().place({job, m, 1});
  const auto aware = policy::TopologyAwarePlacement().place({job, m, 1});
  CHECK_FALSE(groups_on_one_leaf(m, linear, 4, 1));
  CHECK_FALSE(groups_on_one_leaf(m, linear, 4, 4));
  CHECK(groups_on_one_leaf(m, aware, 4, 1));
  CHECK(aware.layout.find("on the locality order of units") != std::string::npos);
  CHECK(hop_bytes(job, m, aware) < hop_bytes(job, m, linear));
  CHECK(hop_bytes(job, m, aware) < hop_bytes(job, m, random));
  // As good as linear on the machine listed leaf by leaf.
  CHECK(hop_bytes(job, m, aware) ==
        doctest::Approx(hop_bytes(job, tree, policy::LinearPlacement().place({job, tree, 1}))));
}

TEST_CASE("topology-aware placement does not trade the busiest link for fewer hop-bytes") {
  // Each layout's estimates, and the rule: the chosen one is the first (linear) or at least 2% below it
  // on both figures.
  const auto m = test::tree_machine(4, 4);
  const auto job = two_axis_job({{"tp", 4}, {"dp", 4}}, "tp");
  const auto search = policy::search_mesh_layouts(job, m);
  REQUIRE(search.layouts.size() == 2);  // dp > tp and tp > dp; the locality order is the topology's
  const auto& linear = search.layouts[0];
  const auto& chosen = search.layouts[search.chosen];
  CHECK(search.chosen == 1);
  CHECK(chosen.hop_bytes < 0.98 * linear.hop_bytes);
  CHECK(chosen.max_fabric_link_seconds < 0.98 * linear.max_fabric_link_seconds);
  // linear: each leaf's 4 units send 1 GB rings to other leaves: 4 x 1.5 GB over a 4 x 100 GB/s uplink;
  // the chosen layout sends only the 1 MB rings up (one unit per leaf of the sample may be missing).
  CHECK(linear.max_fabric_link_seconds == doctest::Approx(4 * 1.5e9 / 400e9));
  CHECK(chosen.max_fabric_link_seconds <= 4 * 1.5e6 / 400e9 * (1 + 1e-9));
}
