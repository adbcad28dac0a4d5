// The other groups of a communicator on shared links: on a 4:1 oversubscribed two-leaf tree, four pairs
// across the spine share one uplink; pairs inside a leaf share nothing.
#include <doctest/doctest.h>

#include "search/copy_contention.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// Two leaves of four units (100 GB/s links), each leaf's uplink one link wide: 4:1 oversubscribed.
topology::Machine oversubscribed_tree() {
  topology::Machine m;
  m.name = "oversubscribed";
  m.generator = "test";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("100GB/s", "1us"));
  auto& t = m.topology;
  const auto spine = t.add_switch("spine");
  for (int l = 0; l < 2; ++l) {
    const auto leaf = t.add_switch("leaf" + std::to_string(l));
    for (int k = 0; k < 4; ++k) t.add_link(t.add_unit("u" + std::to_string(4 * l + k), 0), leaf, 0);
    t.add_link(leaf, spine, 0, 1.0);
  }
  return m;
}

search::GroupUnits groups(std::vector<topology::NodeId> first,
                          std::vector<std::vector<topology::NodeId>> others, double weight) {
  search::GroupUnits g{std::move(first), std::move(others), weight};
  g.hash = search::hash_of(g);
  return g;
}

}  // namespace

TEST_CASE("pairs across an oversubscribed spine drain their shared uplink together") {
  const topology::Machine m = oversubscribed_tree();
  const auto& u = m.topology.units();
  search::CopyContention contention(m);
  const double per_byte = 1.0 / 100e9;  // one 100 GB/s link
  // Pair k: unit k of leaf 0 with unit k of leaf 1. Alone, one byte each way crosses one link per hop.
  const auto across = groups({u[0], u[4]}, {{u[1], u[5]}, {u[2], u[6]}, {u[3], u[7]}}, 1.0);
  const auto [alone, with] = contention.drain(across, {1});
  CHECK(alone == test::approx(per_byte));
  CHECK(with == test::approx(4 * per_byte));  // four pairs through one uplink
  // One sampled pair standing for the three others: the same load.
  const auto sampled = groups({u[0], u[4]}, {{u[2], u[6]}}, 3.0);
  CHECK(contention.drain(sampled, {1}).second == test::approx(4 * per_byte));
  // Pairs inside a leaf cross no shared link.
  const auto inside = groups({u[0], u[1]}, {{u[2], u[3]}, {u[4], u[5]}, {u[6], u[7]}}, 1.0);
  const auto [inside_alone, inside_with] = contention.drain(inside, {1});
  CHECK(inside_alone == test::approx(per_byte));
  CHECK(inside_with == test::approx(per_byte));
}
