// The built-in policy list: lookup by name; an unknown name lists the known ones.
#include <doctest/doctest.h>

#include "policy/policy_catalog.hpp"
#include "support/test_machines.hpp"

using namespace zs;

TEST_CASE("built-in policies are found by name") {
  CHECK(policy::make_placement_policy("linear")->name() == "linear");
  for (const char* name : {"ring", "rings", "recursive", "tree", "double-binary-tree", "in-network",
                           "hierarchical", "pairwise", "auto"})
    CHECK(policy::make_collective_policy(name)->name() == name);
  CHECK(policy::builtin_policies().size() == 16);
}

TEST_CASE("an unknown policy name lists the known ones") {
  CHECK_THROWS_WITH(
      policy::make_collective_policy("butterfly"),
      "unknown collective policy \"butterfly\" (known: ring, recursive, tree, double-binary-tree, "
      "in-network, rings, hierarchical, pairwise, auto)");
  CHECK_THROWS_WITH(policy::make_placement_policy("scotch"),
                    "unknown placement policy \"scotch\" (known: linear, random, topology-aware, from-file)");
  CHECK_THROWS_AS(policy::make_placement_policy("from-file"), std::invalid_argument);
}

TEST_CASE("linear placement puts rank r on unit r and refuses a mesh larger than the machine") {
  auto m =
      test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"), test::link_model("1GB/s", "1us"));
  auto p = policy::make_placement_policy("linear");
  workload::Trace t3, t5;
  t3.mesh = workload::Mesh({{"dp", 3}});
  t5.mesh = workload::Mesh({{"dp", 5}});
  auto where = p->place({t3, m, 1});
  CHECK(where.unit_of_rank ==
        std::vector<topology::NodeId>{m.topology.units()[0], m.topology.units()[1], m.topology.units()[2]});
  CHECK_THROWS_AS(p->place({t5, m, 1}), core::InputError);
}
