// run_chained: a schedule's transfers with their dependencies on the fluid sharing model.
#include <doctest/doctest.h>

#include <stdexcept>

#include "engine/collapsed/chained_schedule.hpp"
#include "support/approx.hpp"

using namespace zs;
using engine::ChainedTransfer;

TEST_CASE("chained transfers: dependencies add up, shared directions split the bandwidth") {
  const std::vector<double> bandwidth{1e9, 1e9, 1e9, 1e9};  // two links, B/s per direction
  // a: 1 GB over direction 0 (1 s alone) after a 1 ms latency; b waits for a, 0.5 GB over direction 2.
  std::vector<ChainedTransfer> chain{{1e-3, 1.0, {{0, 1e9}}, {}}, {2e-3, 0.5, {{2, 0.5e9}}, {0}}};
  auto run = engine::run_chained(chain, bandwidth);
  CHECK(run.seconds == zs::test::approx(1e-3 + 1.0 + 2e-3 + 0.5).epsilon(1e-12));
  CHECK(run.latency == zs::test::approx(3e-3).epsilon(1e-12));

  // Two independent 1 GB transfers on direction 0 share it: both end at 2 s. A third on direction 1
  // (the link's other direction) is not slowed.
  std::vector<ChainedTransfer> shared{
      {0, 1.0, {{0, 1e9}}, {}}, {0, 1.0, {{0, 1e9}}, {}}, {0, 1.0, {{1, 1e9}}, {}}};
  run = engine::run_chained(shared, bandwidth);
  CHECK(run.seconds == zs::test::approx(2.0).epsilon(1e-9));

  // A short transfer (0.5 GB) and a long one (1 GB) share direction 0: the short ends at 1 s, the long
  // one then runs alone and ends at 1.5 s; a transfer after the short one starts at 1 s.
  std::vector<ChainedTransfer> staggered{
      {0, 0.5, {{0, 0.5e9}}, {}}, {0, 1.0, {{0, 1e9}}, {}}, {0, 0.25, {{2, 0.25e9}}, {0}}};
  run = engine::run_chained(staggered, bandwidth);
  CHECK(run.seconds == zs::test::approx(1.5).epsilon(1e-9));

  // A transfer that moves no bytes costs its latency; a dependency that does not exist is refused.
  run = engine::run_chained({{5e-6, 0, {}, {}}}, bandwidth);
  CHECK(run.seconds == zs::test::approx(5e-6).epsilon(1e-12));
  CHECK_THROWS_AS(engine::run_chained({{0, 1.0, {{0, 1e9}}, {3}}}, bandwidth), std::logic_error);
  // Two transfers that wait for each other are refused, not left hanging.
  CHECK_THROWS_AS(engine::run_chained({{0, 1.0, {{0, 1e9}}, {1}}, {0, 1.0, {{0, 1e9}}, {0}}}, bandwidth),
                  std::logic_error);
}
