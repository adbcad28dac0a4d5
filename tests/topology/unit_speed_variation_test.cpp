// Unit speed variation: the drawn slowdowns follow the clamped normal, and groups are paced by their maximum.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "support/test_machines.hpp"
#include "topology/unit_speed_variation.hpp"

using namespace zs;

namespace {
topology::Machine machine_of(int units) {
  return test::single_switch_machine(units, test::unit_model("100TFLOPS", 0.5, "0s"),
                                     test::link_model("100GB/s", "1us"));
}
}  // namespace

TEST_CASE("unit speed variation: 1 + cv max(z, 0) per unit, E[max(z, 0)] = 1/sqrt(2 pi), half at 1") {
  const double cv = 0.05;
  auto m = machine_of(4096);
  topology::apply_unit_speed_variation(m, {cv, 0.0, "assumption: test"}, 7);
  // Units drawn at or above their model's speed keep no entry.
  const double slowed = double(m.unit_slowdown.size()) / 4096;
  CHECK(slowed == doctest::Approx(0.5).epsilon(0.05));
  double sum = 0;
  for (auto unit : m.topology.units()) sum += m.compute_slowdown(unit) - 1.0;
  // The mean of max(z, 0) is 1/sqrt(2 pi) = 0.3989; its standard error over 4,096 units is 0.009.
  CHECK(sum / 4096 / cv == doctest::Approx(1.0 / std::sqrt(2 * std::numbers::pi)).epsilon(0.1));
  for (const auto& [unit, factor] : m.unit_slowdown) CHECK(factor > 1.0);
}

TEST_CASE("unit speed variation: a group of 8 waits for 1 + cv E[max of 8 normals] = 1 + 1.4236 cv") {
  const double cv = 0.1;
  auto m = machine_of(8 * 1024);
  topology::apply_unit_speed_variation(m, {cv, 0.0, "assumption: test"}, 3);
  const auto& units = m.topology.units();
  double sum = 0;
  for (size_t g = 0; g < 1024; ++g) {
    double slowest = 1.0;
    for (size_t i = 0; i < 8; ++i) slowest = std::max(slowest, m.compute_slowdown(units[8 * g + i]));
    sum += slowest - 1.0;
  }
  // E[max of 8 standard normals] = 1.42360 (order statistics tables); the clamp at 0 adds under 0.001
  // (all 8 negative: 1/256). Standard error over 1,024 groups: 0.018.
  CHECK(sum / 1024 / cv == doctest::Approx(1.4236).epsilon(0.05));
}

TEST_CASE("unit speed variation: the same seed draws the same slowdowns, cv 0 draws none, draws multiply") {
  auto a = machine_of(64), b = machine_of(64), c = machine_of(64);
  topology::apply_unit_speed_variation(a, {0.03, 0.0, "x"}, 11);
  topology::apply_unit_speed_variation(b, {0.03, 0.0, "x"}, 11);
  topology::apply_unit_speed_variation(c, {0.03, 0.0, "x"}, 12);
  CHECK(a.unit_slowdown == b.unit_slowdown);
  CHECK(a.unit_slowdown != c.unit_slowdown);
  auto none = machine_of(64);
  topology::apply_unit_speed_variation(none, {0.0, 0.0, "x"}, 11);
  CHECK(none.unit_slowdown.empty());
  // A unit already slowed (a straggler) keeps its slowdown times the drawn one.
  auto straggling = machine_of(64);
  const auto unit = a.unit_slowdown.begin()->first;
  straggling.unit_slowdown[unit] = 2.0;
  topology::apply_unit_speed_variation(straggling, {0.03, 0.0, "x"}, 11);
  CHECK(straggling.unit_slowdown.at(unit) == doctest::Approx(2.0 * a.unit_slowdown.at(unit)));
}
