// One data-parallel iteration replayed on SimGrid against a hand calculation.
#include <doctest/doctest.h>

#include "engine/simulation.hpp"
#include "policy/linear_placement.hpp"
#include "policy/ring_collective.hpp"
#include "support/approx.hpp"
#include "support/hand_calculation.hpp"
#include "support/test_machines.hpp"
#include "workload/data_parallel_generator.hpp"

using namespace zs;

TEST_CASE("iteration = compute + the last gradient all-reduce + optimizer, by hand") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  auto m = test::hand_model();
  auto trace = workload::generate_data_parallel_trace(m, {4, 1, 4});
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());

  test::HandCalculation hand;
  REQUIRE(hand.ar_layer1 < 2 * hand.layer_fwd);  // the premise: layer 1's all-reduce is hidden
  const auto& rank0 = r.replay.ranks[0];
  CHECK(r.replay.iteration_time.value() == zs::test::approx(hand.iteration).epsilon(1e-9));
  CHECK(rank0.compute.value() == zs::test::approx(hand.compute).epsilon(1e-9));
  CHECK(rank0.exposed_comm.value() == zs::test::approx(hand.exposed).epsilon(1e-9));
  CHECK(rank0.idle.value() == zs::test::approx(0.0));
  CHECK(trace.model_flops.value() == zs::test::approx(hand.model_flops).epsilon(1e-12));
  CHECK(r.mfu == zs::test::approx(hand.mfu).epsilon(1e-9));
  CHECK(r.replay.collectives == 2);
  CHECK(r.replay.transfer_activities == 2 * 2 * 3 * 4);  // 2 all-reduces x 2(n-1) steps x n transfers
}

TEST_CASE("every rank of a symmetric data-parallel job finishes at the same time") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  auto m = test::hand_model();
  auto r = engine::simulate(machine, workload::generate_data_parallel_trace(m, {4, 1, 8}),
                            policy::LinearPlacement(), policy::RingCollective());
  for (const auto& rank : r.replay.ranks)
    CHECK(rank.finish.value() == zs::test::approx(r.replay.iteration_time.value()).epsilon(1e-12));
}
