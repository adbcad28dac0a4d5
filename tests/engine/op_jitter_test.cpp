// Per-op jitter: the normal quantile, the draws' means against order statistics, determinism, an iteration.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/op_jitter.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/hand_calculation.hpp"
#include "support/test_machines.hpp"
#include "workload/data_parallel_generator.hpp"

using namespace zs;

TEST_CASE("the standard normal quantile matches the tables") {
  CHECK(std::abs(engine::standard_normal_quantile(0.5)) < 1e-12);
  CHECK(engine::standard_normal_quantile(0.975) == zs::test::approx(1.959963985).epsilon(1e-9));
  CHECK(engine::standard_normal_quantile(0.001) == zs::test::approx(-3.090232306).epsilon(1e-9));
}

TEST_CASE("jitter draws average 1 + cv E[max(Z, 0)], of one rank or of the slowest of several") {
  const double cv = 0.1;
  auto mean_factor = [&](uint64_t members) {
    double sum = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i)
      sum += engine::op_jitter_factor(cv, 42, uint64_t(i) / 1000, i % 1000, members);
    return sum / n;
  };
  // E[max(Z, 0)] = 1 / sqrt(2 pi) = 0.39894 for one rank; for 8 the expected maximum of 8 standard
  // normals, 1.42360 (order statistics tables; its negative part is negligible).
  CHECK(mean_factor(1) == zs::test::approx(1.0 + cv * 0.398942).epsilon(0.002));
  CHECK(mean_factor(8) == zs::test::approx(1.0 + cv * 1.42360).epsilon(0.002));
  CHECK(engine::op_jitter_factor(0.0, 42, 3, 7, 1) == 1.0);
  CHECK(engine::op_jitter_factor(cv, 42, 3, 7, 1) == engine::op_jitter_factor(cv, 42, 3, 7, 1));
  double seed42 = 0, seed43 = 0;  // another seed, other draws
  for (uint32_t op = 0; op < 100; ++op) {
    seed42 += engine::op_jitter_factor(cv, 42, 3, op, 1);
    seed43 += engine::op_jitter_factor(cv, 43, 3, op, 1);
  }
  CHECK(seed42 != seed43);
}

TEST_CASE("per-op jitter lengthens an iteration by its draws, the same for the same seed") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  const auto trace = workload::generate_data_parallel_trace(test::hand_model(), {4, 1, 4});
  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
  machine.op_jitter = {0.2, 5};
  auto jittered = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  auto again = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  CHECK(jittered.replay.iteration_time.value() == again.replay.iteration_time.value());
  // Every rank's compute is the sum of its ops' times, each times its own draw.
  CHECK(jittered.replay.iteration_time.value() > hand.iteration);
  for (const auto& rank : jittered.replay.ranks) {
    double expected = 0;
    for (uint32_t op = 0; op < trace.roles[0].ops.size(); ++op)
      if (const auto* c = std::get_if<workload::ComputeOp>(&trace.roles[0].ops[op].body)) {
        const auto& model = machine.unit_model(machine.topology.units()[rank.rank]);
        expected +=
            engine::op_jitter_factor(0.2, 5, rank.rank, op, 1) *
            model.compute_time(hw::ComputeWork{c->flops, c->bytes, c->dtype, c->kind, c->kernels}).value();
      }
    CAPTURE(rank.rank);
    CHECK(rank.compute.value() == zs::test::approx(expected).epsilon(1e-9));
  }
  machine.op_jitter.cv = 0;
  auto still = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  CHECK(still.replay.iteration_time.value() == zs::test::approx(hand.iteration).epsilon(1e-9));
}
