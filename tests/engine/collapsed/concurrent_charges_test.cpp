// Max-min sharing of link directions between collapsed fidelity's charges in flight: closed forms.
#include <doctest/doctest.h>

#include "engine/collapsed/concurrent_charges.hpp"
#include "support/approx.hpp"

using namespace zs;
using engine::ConcurrentCharges;
using zs::test::approx;

TEST_CASE("charges on disjoint directions keep the times they take alone") {
  ConcurrentCharges sharing({100.0, 100.0});  // B/s
  const auto a = sharing.start(0.0, 2.0, {{0, 200.0}});
  const auto b = sharing.start(0.5, 1.0, {{1, 100.0}});
  CHECK(sharing.changed() == std::vector<ConcurrentCharges::Id>{b});
  CHECK(sharing.finish(a) == approx(2.0));
  CHECK(sharing.finish(b) == approx(1.5));
  CHECK(sharing.slowed_charges() == 0);
}

TEST_CASE("two equal charges that fill one direction share it: the pair takes twice as long") {
  ConcurrentCharges sharing({100.0});
  const auto a = sharing.start(0.0, 1.0, {{0, 100.0}});
  const auto b = sharing.start(0.5, 1.0, {{0, 100.0}});
  // From 0.5 s each runs at half speed: a has 0.5 s of work left and ends at 1.5 s; then b, with
  // 0.5 s left, runs alone and ends at 2 s, when the direction has moved all 200 B at 100 B/s.
  CHECK(sharing.finish(a) == approx(1.5));
  CHECK(sharing.finish(b) == approx(2.5));
  const auto first_version = sharing.version(b);
  sharing.end(a, 1.5);
  CHECK(sharing.changed() == std::vector<ConcurrentCharges::Id>{b});
  CHECK(sharing.version(b) != first_version);
  CHECK(sharing.finish(b) == approx(2.0));
  CHECK(sharing.slowed_charges() == 2);
}

TEST_CASE("a charge slowed on one direction does not slow its neighbour on another beyond max-min") {
  // a and b share direction 0 (each asks 80 of 100 B/s); b and c share direction 1 (b 80, c 40 of
  // 100 B/s). Progressive filling: direction 0 binds first at 100 / 160 = 0.625 for a and b; c then
  // gets (100 - 0.625 x 80) / 40 = 1.25, capped at full speed.
  ConcurrentCharges sharing({100.0, 100.0});
  const auto a = sharing.start(0.0, 1.0, {{0, 80.0}});
  const auto b = sharing.start(0.0, 1.0, {{0, 80.0}, {1, 80.0}});
  const auto c = sharing.start(0.0, 1.0, {{1, 40.0}});
  CHECK(sharing.finish(a) == approx(1.6));
  CHECK(sharing.finish(b) == approx(1.6));
  CHECK(sharing.finish(c) == approx(1.0));
}

TEST_CASE("directions a charge barely uses are not tracked") {
  ConcurrentCharges sharing({100.0});
  const auto a = sharing.start(0.0, 1.0, {{0, 100.0}});
  const auto b = sharing.start(0.0, 1.0, {{0, 0.5}});  // 0.5% of the direction: below kNegligibleUse
  CHECK(sharing.finish(a) == approx(1.0));
  CHECK(sharing.finish(b) == approx(1.0));
}
