// One data-parallel iteration replayed on SimGrid against a hand calculation.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/json_object.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/hand_calculation.hpp"
#include "support/test_machines.hpp"
#include "topology/unit_speed_variation.hpp"
#include "workload/data_parallel_generator.hpp"

using namespace zs;

TEST_CASE("iteration = compute + the last gradient all-reduce + optimizer, by hand") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  auto m = test::hand_model();
  auto trace = workload::generate_data_parallel_trace(m, {4, 1, 4});
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());

  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
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

TEST_CASE("a straggler at 50% speed: its compute doubles on the critical path, and nothing else changes") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  const auto trace = workload::generate_data_parallel_trace(test::hand_model(), {4, 1, 4});
  machine.unit_slowdown[machine.topology.units()[2]] = 2.0;  // rank 2 at half speed
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());

  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
  // Every rank waits for rank 2 at each all-reduce: layer 1's still hides under rank 2's (slower) layer-0
  // backward, layer 0's starts after rank 2's last backward, and rank 2's optimizer is last to finish.
  CHECK(r.replay.iteration_time.value() == zs::test::approx(2 * hand.compute + hand.exposed).epsilon(1e-9));
  CHECK(r.replay.critical_rank == 2);
  for (const auto& rank : r.replay.ranks) {
    CAPTURE(rank.rank);
    const double compute = rank.rank == 2 ? 2 * hand.compute : hand.compute;
    CHECK(rank.compute.value() == zs::test::approx(compute).epsilon(1e-9));
  }
  // A slowdown on a node the job does not compute on changes nothing.
  machine.unit_slowdown.clear();
  machine.unit_slowdown[machine.topology.neighbours(machine.topology.units()[0]).front().first] =
      2.0;  // a switch
  auto healthy = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  CHECK(healthy.replay.iteration_time.value() == zs::test::approx(hand.iteration).epsilon(1e-9));
}

TEST_CASE("unit speed variation: the iteration is paced by the slowest unit drawn, as by one straggler") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  const auto trace = workload::generate_data_parallel_trace(test::hand_model(), {4, 1, 4});
  topology::apply_unit_speed_variation(machine, {0.2, 0.0, "assumption: test"}, 5);
  double slowest = 1.0;
  for (auto unit : machine.topology.units()) slowest = std::max(slowest, machine.compute_slowdown(unit));
  REQUIRE(slowest > 1.0);
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
  CHECK(r.replay.iteration_time.value() ==
        zs::test::approx(slowest * hand.compute + hand.exposed).epsilon(1e-9));
}

TEST_CASE("compute beside communication runs 1 / (1 + overlap_slowdown) as fast while they overlap") {
  auto json = test::unit_model_json("100TFLOPS", 0.5, "0s");
  json["overlap_slowdown"] = 0.25;
  json["sources"]["overlap_slowdown"] = "test value";
  core::JsonObject o(json, "test-gpu.json", "");
  auto machine =
      test::single_switch_machine(4, hw::ComputeUnitModel::from_json(o), test::link_model("100GB/s", "1us"));
  const auto trace = workload::generate_data_parallel_trace(test::hand_model(), {4, 1, 4});
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
  // Layer 1's gradient all-reduce starts with layer 0's backward: for its ar_layer1 seconds that backward
  // does ar_layer1 / 1.25 of its work, so it ends ar_layer1 x (1 - 1/1.25) later. Nothing else overlaps:
  // layer 0's all-reduce runs after every backward and the optimizer waits for it.
  CHECK(r.replay.iteration_time.value() ==
        zs::test::approx(hand.iteration + hand.ar_layer1 * (1 - 1 / 1.25)).epsilon(1e-9));
  CHECK(r.replay.ranks[0].compute.value() ==
        zs::test::approx(hand.compute + hand.ar_layer1 * (1 - 1 / 1.25)).epsilon(1e-9));
  // Collapsed fidelity costs the all-reduce without flows but runs compute the same way.
  auto collapsed = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective(), {},
                                    engine::Fidelity::kCollapsed);
  CHECK(collapsed.replay.iteration_time.value() ==
        zs::test::approx(r.replay.iteration_time.value()).epsilon(1e-6));
}

TEST_CASE("a link at half bandwidth slows only the transfers that cross it") {
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  const auto trace = workload::generate_data_parallel_trace(test::hand_model(), {4, 1, 4});
  machine.link_derating[0] = 0.5;  // rank 0's link
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  test::HandCalculation hand{.base_latency = 0};  // a machine built in code
  // Every ring step crosses the slow link (rank 0 sends and receives each step): the exposed all-reduce
  // runs at 50 GB/s.
  const double slow_ar = 2 * 3 * 2e-6 + 2.0 * 3 / 4 * 2 * (hand.layer_params + hand.embedding_params) / 50e9;
  CHECK(r.replay.iteration_time.value() == zs::test::approx(hand.compute + slow_ar).epsilon(1e-6));
}
