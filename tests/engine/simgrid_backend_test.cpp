// The backend's own primitives: timers, explicit routes, routes that follow switched links.
#include <doctest/doctest.h>

#include <map>

#include "engine/simgrid_backend.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {
/// a - s1 - b (10 GB/s, 1 us per link) and a - s2 - b (1 GB/s, 2 us per link).
topology::Machine fast_and_slow() {
  topology::Machine m;
  m.name = "two-paths";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("10GB/s", "1us"));
  m.link_models.push_back(test::link_model("1GB/s", "2us"));
  auto& t = m.topology;
  auto a = t.add_unit("a", 0);
  auto b = t.add_unit("b", 0);
  auto s1 = t.add_switch("s1");
  auto s2 = t.add_switch("s2");
  t.add_link(a, s1, 0);
  t.add_link(s1, b, 0);
  t.add_link(a, s2, 1);
  t.add_link(s2, b, 1);
  return m;
}

std::map<uint64_t, double> run_all(engine::SimgridBackend& backend) {
  std::map<uint64_t, double> done;
  backend.run([&](uint64_t token) { done[token] = backend.now().value(); });
  return done;
}
}  // namespace

TEST_CASE("timers complete after their delay, however many overlap") {
  auto m = fast_and_slow();
  engine::SimgridBackend backend(m);
  for (uint64_t i = 1; i <= 100; ++i) backend.start_timer(core::Seconds(1e-3 * static_cast<double>(i)), i);
  auto done = run_all(backend);
  REQUIRE(done.size() == 100);
  for (uint64_t i = 1; i <= 100; ++i)
    CHECK(done[i] == zs::test::approx(1e-3 * static_cast<double>(i)).epsilon(1e-12));
}

TEST_CASE("a transfer follows the route it is given, and by default the fewest-hop route") {
  auto m = fast_and_slow();
  const double S = 1e6;
  {
    engine::SimgridBackend backend(m);
    backend.start_transfer(0, 1, core::Bytes(S), 1);          // default: through s1 (lower id)
    backend.start_transfer(0, 1, core::Bytes(S), 2, {2, 3});  // explicit: through s2
    auto done = run_all(backend);
    CHECK(done[1] == zs::test::approx(2e-6 + S / 10e9).epsilon(1e-9));
    CHECK(done[2] == zs::test::approx(4e-6 + S / 1e9).epsilon(1e-9));  // disjoint paths: no sharing
  }
  {
    engine::SimgridBackend backend(m);
    backend.router().set_link_enabled(1, false);  // s1 - b switched off: the default detours
    backend.start_transfer(1, 0, core::Bytes(S), 7);
    auto done = run_all(backend);
    CHECK(done[7] == zs::test::approx(4e-6 + S / 1e9).epsilon(1e-9));
  }
}

TEST_CASE("a route that is not a path between the endpoints is refused") {
  auto m = fast_and_slow();
  engine::SimgridBackend backend(m);
  CHECK_THROWS_AS(backend.start_transfer(0, 1, core::Bytes(1e3), 1, {0, 3}), std::logic_error);
}

TEST_CASE("a compute-only backend (collapsed fidelity) runs compute on its units and timers, no transfers") {
  auto m = fast_and_slow();
  engine::SimgridBackend backend(m, {0});  // unit a only
  backend.start_compute(0, core::Seconds(2e-3), 1);
  backend.start_compute(0, core::Seconds(2e-3), 2);  // two at once share the unit
  backend.start_timer(core::Seconds(1e-3), 3);
  CHECK_THROWS_AS(backend.start_compute(1, core::Seconds(1e-3), 4), std::logic_error);  // b has no host
  CHECK_THROWS_AS(backend.start_transfer(0, 1, core::Bytes(1e6), 5), std::logic_error);
  auto done = run_all(backend);
  REQUIRE(done.size() == 3);
  CHECK(done[1] == zs::test::approx(4e-3).epsilon(1e-12));
  CHECK(done[2] == zs::test::approx(4e-3).epsilon(1e-12));
  CHECK(done[3] == zs::test::approx(1e-3).epsilon(1e-12));
  CHECK(backend.router().route(0, 1).size() == 2);  // routing still knows the machine
}
