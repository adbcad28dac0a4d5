// The locality order lists each leaf's units together whatever order the topology lists them in.
#include <doctest/doctest.h>

#include <algorithm>

#include "support/reordered_units.hpp"
#include "support/test_machines.hpp"
#include "topology/locality_order.hpp"

using namespace zs;

namespace {

/// Leaf of a unit, from its name.
char leaf_of(const topology::Machine& m, topology::NodeId u) {
  return m.topology.node(u).name[4];
}

}  // namespace

TEST_CASE("locality order: a tree listed leaf by leaf keeps its order") {
  const auto m = test::tree_machine(4, 4);
  CHECK(topology::locality_order(m) == m.topology.units());
}

TEST_CASE("locality order: units listed across leaves come back grouped by leaf") {
  const auto tree = test::tree_machine(4, 4);
  std::vector<topology::NodeId> cyclic;  // the first unit of every leaf, then the second, ...
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) cyclic.push_back(tree.topology.units()[size_t(4 * l + k)]);
  const auto m = test::with_units_listed(tree, cyclic);
  REQUIRE(leaf_of(m, m.topology.units()[0]) != leaf_of(m, m.topology.units()[1]));
  const auto order = topology::locality_order(m);
  REQUIRE(order.size() == 16);
  CHECK(std::is_permutation(order.begin(), order.end(), m.topology.units().begin()));
  for (size_t i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(leaf_of(m, order[i]) == leaf_of(m, order[i / 4 * 4]));  // each run of 4 is one leaf
    if (i % 4 == 0 && i > 0) CHECK(leaf_of(m, order[i]) != leaf_of(m, order[i - 4]));
  }
  CHECK(order.front() == m.topology.units().front());  // the search starts from the first listed unit
}
