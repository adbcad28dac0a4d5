// Exact fidelity's estimated work, and auto fidelity's choice by it.
#include <doctest/doctest.h>

#include "engine/exact_work.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"

using namespace zs;
using workload::CollectiveKind;

TEST_CASE("a ring all-reduce over n ranks is 2n(n-1) transfers with n flows in flight") {
  for (double n : {2.0, 8.0, 2048.0}) {
    const auto work = engine::estimate_exact_work(test::one_collective(CollectiveKind::kAllReduce, n, 1e6));
    CHECK(work.rank_ops == n);
    CHECK(work.transfers == 2 * n * (n - 1));
    CHECK(work.peak_flows == n);
    CHECK(work.scans() == 2 * n * n * (n - 1));
  }
}

TEST_CASE("a direct all-to-all has every member's n-1 transfers in flight at once") {
  const auto work = engine::estimate_exact_work(test::one_collective(CollectiveKind::kAllToAll, 16, 1e6));
  CHECK(work.transfers == 16 * 15);
  CHECK(work.peak_flows == 16 * 15);
}

TEST_CASE("auto fidelity: exact for an all-reduce of up to 512 ranks, collapsed for 2,048, and says why") {
  const auto link = test::link_model("100GB/s", "1us");
  const double bytes = 64.0 * 1024 * 1024;
  auto run = [&](uint32_t n) {
    const auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"), link);
    return engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, n, bytes),
                            policy::LinearPlacement(), policy::RingCollective());
  };
  const auto small =
      engine::estimate_exact_work(test::one_collective(CollectiveKind::kAllReduce, 512, bytes));
  CHECK(small.scans() < engine::kExactScanLimit);
  const auto large = run(2048);
  CHECK(large.replay.fidelity == core::Fidelity::kCollapsed);
  CHECK(large.fidelity_reason ==
        "auto: about 1.72e+10 activity scans (8.38e+06 transfers x 2.05e+03 flows in flight), beyond exact "
        "fidelity's 2.15e+09");
  // The collapsed replay still gives the ring's closed form: 2(n-1) alpha + 2(n-1)/n S/B.
  const double n = 2048, alpha = 2e-6, bandwidth = 100e9;
  const double closed = 2 * (n - 1) * alpha + 2 * (n - 1) / n * bytes / bandwidth;
  CHECK(large.replay.iteration_time.value() == test::approx(closed).epsilon(0.01));
  const auto exact = run(8);
  CHECK(exact.replay.fidelity == core::Fidelity::kExact);
  CHECK(exact.fidelity_reason ==
        "auto: 8 rank-ops and about 896 activity scans, within exact fidelity's limits (1.68e+07, 2.15e+09)");
}

TEST_CASE("a fidelity asked for by name has no reason to give") {
  const auto machine = test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"),
                                                   test::link_model("100GB/s", "1us"));
  const auto r =
      engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, 4, 1e6),
                       policy::LinearPlacement(), policy::RingCollective(), {}, core::Fidelity::kExact);
  CHECK(r.fidelity_reason.empty());
}
