// Routes: hop counts, latency and bottleneck bandwidth.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"

using namespace zs;

TEST_CASE("two units on one switch are two links apart") {
  auto m = test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"),
                                       test::link_model("100GB/s", "1us"));
  const auto& u = m.topology.units();
  auto r = topology::shortest_route(m.topology, u[0], u[3]);
  CHECK(r.links.size() == 2);
  CHECK(topology::route_latency(m, r).value() == 2e-6);
  CHECK(topology::route_bandwidth(m, r).value() == 100e9);
}

namespace {

/// Units a and b joined through two switches: a -(edge)- s1 -(middle)- s2 -(edge)- b, links 0, 1, 2.
topology::Machine chain(hw::LinkModel edge, hw::LinkModel middle) {
  topology::Machine m;
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(std::move(edge));
  m.link_models.push_back(std::move(middle));
  auto a = m.topology.add_unit("a", 0);
  auto s1 = m.topology.add_switch("s1");
  auto s2 = m.topology.add_switch("s2");
  auto b = m.topology.add_unit("b", 0);
  m.topology.add_link(a, s1, 0);
  m.topology.add_link(s1, s2, 1);
  m.topology.add_link(s2, b, 0);
  return m;
}

}  // namespace

TEST_CASE("the route through a chain crosses every link and its narrowest sets the bandwidth") {
  auto m = chain(test::link_model("100GB/s", "1us"), test::link_model("25GB/s", "3us"));
  const auto a = m.topology.units()[0], b = m.topology.units()[1];
  auto r = topology::shortest_route(m.topology, a, b);
  CHECK(r.links == std::vector<topology::LinkId>{0, 1, 2});
  CHECK(topology::route_latency(m, r).value() == zs::test::approx(5e-6).epsilon(1e-15));
  CHECK(topology::route_bandwidth(m, r).value() == 25e9);
  auto lonely = m.topology.add_unit("c", 0);
  CHECK_THROWS_AS(topology::shortest_route(m.topology, a, lonely), std::invalid_argument);
}

TEST_CASE(
    "a transfer's latency is its route's, at least the largest step latency on it when the machine charges "
    "it") {
  // NVLink-like edges (3.4 us per library step), a network-like middle (14 us).
  auto m = chain(test::link_model("100GB/s", "1us", "3.4us"), test::link_model("25GB/s", "1us", "14us"));
  const std::vector<topology::LinkId> across{0, 1, 2}, near{0};
  // Off (the default): the links' latencies only, the step latency reads as 0.
  CHECK(topology::route_step_latency(m, across).value() == 0);
  CHECK(topology::transfer_latency(m, across).value() == zs::test::approx(3e-6).epsilon(1e-12));
  m.step_latency = true;
  CHECK(topology::route_latency(m, across).value() == zs::test::approx(3e-6).epsilon(1e-12));
  CHECK(topology::route_step_latency(m, across).value() == zs::test::approx(14e-6).epsilon(1e-12));
  CHECK(topology::transfer_latency(m, across).value() == zs::test::approx(14e-6).epsilon(1e-12));
  CHECK(topology::transfer_latency(m, near).value() == zs::test::approx(3.4e-6).epsilon(1e-12));
}
