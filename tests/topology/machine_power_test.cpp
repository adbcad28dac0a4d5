// The machine's power: every unit, host, link end, memory pool and optical switch, summed by class.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_power.hpp"
#include "topology/memory_pools.hpp"

using namespace zs;

namespace {

/// Four test units (idle 100 W, load 500 W, host 50 W) on a switch over test links (10 W at a unit's end,
/// 20 W at a switch's), one of width 2.5; a pool (300 W) on the switch; an optical switch (100 W, 15 W
/// per cabled port) with 3 cabled ports.
topology::Machine four_unit_machine() {
  auto m = test::single_switch_machine(4, test::unit_model("1PFLOPS", 0.5, "0s"),
                                       test::link_model("1GB/s", "1us"));
  const topology::NodeId sw = 0;
  m.topology.add_link(m.topology.units()[0], sw, 0, 2.5);
  m.memory_models.push_back(test::memory_pool_model(8, "64GB/s", "250ns"));
  topology::add_memory_pool(m, "pool", 0, sw);
  m.optical_switch_models.push_back(test::optical_switch_model(8, "10ms", "100GB/s"));
  m.topology.add_optical_switch("ocs", 0, {sw, sw, m.topology.units()[1]});
  return m;
}

}  // namespace

TEST_CASE("a machine's power is every part's figure, link ends counted by width") {
  const auto p = topology::machine_power(four_unit_machine());
  CHECK(p.unit_idle.value() == test::approx(4 * 100.0));
  CHECK(p.unit_load_extra.value() == test::approx(4 * 400.0));
  CHECK(p.hosts.value() == test::approx(4 * 50.0));
  CHECK(p.unit_ports.value() == test::approx((4 + 2.5) * 10.0));
  CHECK(p.switch_ports.value() == test::approx((4 + 2.5) * 20.0));  // the pool's link adds nothing
  CHECK(p.memory_pools.value() == test::approx(300.0));
  CHECK(p.optical_switches.value() == test::approx(100.0 + 3 * 15.0));
  CHECK(p.standing().value() == test::approx(400 + 200 + 65 + 130 + 300 + 145.0));
  CHECK(p.peak().value() == test::approx(p.standing().value() + 1600.0));
}

TEST_CASE("a machine's energy: standing power over the time, plus the units' computing above idle") {
  const auto p = topology::machine_power(four_unit_machine());
  const auto e = topology::machine_energy(p, core::Seconds(2.0), core::Joules(1000.0));
  CHECK(e.units.value() == test::approx(400 * 2.0 + 1000.0));
  CHECK(e.hosts.value() == test::approx(200 * 2.0));
  CHECK(e.memory_pools.value() == test::approx(300 * 2.0));
  CHECK(e.total().value() == test::approx(p.standing().value() * 2.0 + 1000.0));
}
