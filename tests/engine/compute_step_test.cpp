// A compute-only step on one GPU takes exactly FLOPs / (peak x efficiency) (+ launch overhead).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/engine_value_error.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {
workload::Trace one_op_trace(workload::ComputeOp op) {
  workload::Trace t;
  t.name = "one-op";
  t.mesh = workload::Mesh({{"dp", 1}});
  t.streams = {"compute"};
  t.roles = {{"rank", {{"gemm", "forward", 0, {}, op}}}};
  t.model_flops = op.flops;
  return t;
}

/// A bf16 matrix op of `flops` on stream 0.
workload::Op gemm(double flops) {
  return workload::Op{"gemm",
                      "forward",
                      0,
                      {},
                      workload::ComputeOp{core::Flops(flops), core::Bytes(0.0), core::Dtype::kBf16,
                                          core::WorkKind::kMatrix, 1}};
}

/// A trace of two ranks along `axis`, each running its own role.
workload::Trace two_rank_trace(const std::string& name, const std::string& axis,
                               std::vector<std::string> streams) {
  workload::Trace t;
  t.name = name;
  t.mesh = workload::Mesh({{axis, 2}});
  t.streams = std::move(streams);
  t.role_axis = axis;
  return t;
}

double simulate_one(const hw::ComputeUnitModel& unit, workload::ComputeOp op) {
  auto machine = test::single_switch_machine(1, unit, test::link_model("1GB/s", "1us"));
  auto trace = one_op_trace(op);
  return engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective())
      .replay.iteration_time.value();
}
}  // namespace

TEST_CASE("compute-only step: FLOPs / (peak x efficiency) from the model file") {
  // The shipped H100 figures: 989 TFLOP/s bf16 at matrix efficiency 0.72, no launch overhead here.
  auto h100_like = test::unit_model("989TFLOPS", 0.72, "0s");
  workload::ComputeOp gemm{core::Flops(4.0 * 8192 * 8192 * 8192), core::Bytes(0.0), core::Dtype::kBf16,
                           core::WorkKind::kMatrix, 1};
  double expected = 4.0 * 8192 * 8192 * 8192 / (989e12 * 0.72);
  CHECK(simulate_one(h100_like, gemm) == zs::test::approx(expected).epsilon(1e-12));
}

TEST_CASE("each kernel adds the model's launch overhead") {
  auto unit = test::unit_model("1PFLOPS", 0.5, "4us");
  workload::ComputeOp op{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 5};
  CHECK(simulate_one(unit, op) == zs::test::approx(5 * 4e-6 + 1e12 / 0.5e15).epsilon(1e-12));
}

TEST_CASE("MFU of a compute-only step equals the matrix efficiency") {
  auto unit = test::unit_model("1PFLOPS", 0.6, "0s");
  auto machine = test::single_switch_machine(1, unit, test::link_model("1GB/s", "1us"));
  auto trace =
      one_op_trace({core::Flops(3e12), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1});
  auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  CHECK(r.mfu == zs::test::approx(0.6).epsilon(1e-12));
  CHECK(r.replay.ranks[0].compute.value() ==
        zs::test::approx(r.replay.iteration_time.value()).epsilon(1e-12));
}

TEST_CASE("energy: every part's power over the iteration plus the units' load increment while computing") {
  // Test unit: idle 100 W, load 500 W, host 50 W; test link: 10 W at a unit's end, 20 W at a switch's.
  // Two ranks on a two-unit switch, one computes 1 s, the other 0.5 s.
  auto unit = test::unit_model("1PFLOPS", 0.5, "0s");
  auto machine = test::single_switch_machine(2, unit, test::link_model("1GB/s", "1us"));
  workload::Trace t = two_rank_trace("two", "pp", {"compute"});
  t.roles = {{"first", {gemm(0.5e15)}}, {"second", {gemm(0.25e15)}}};
  auto r = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(r.replay.iteration_time.value() == zs::test::approx(1.0));
  CHECK(r.energy.units.value() == zs::test::approx(2 * 100 * 1.0 + 400 * 1.0 + 400 * 0.5).epsilon(1e-12));
  CHECK(r.energy.hosts.value() == zs::test::approx(2 * 50 * 1.0).epsilon(1e-12));
  CHECK(r.energy.unit_ports.value() == zs::test::approx(2 * 10 * 1.0).epsilon(1e-12));
  CHECK(r.energy.switch_ports.value() == zs::test::approx(2 * 20 * 1.0).epsilon(1e-12));
  CHECK(r.energy.total().value() == zs::test::approx(800 + 100 + 20 + 40).epsilon(1e-12));
  CHECK(r.average_power.value() == zs::test::approx(960.0).epsilon(1e-12));
  CHECK(r.power.peak().value() == zs::test::approx(2 * 500 + 100 + 20 + 40).epsilon(1e-12));
}

TEST_CASE("a dtype the unit lacks is an input error naming the op") {
  auto unit = test::unit_model("1PFLOPS", 0.5, "0s");  // bf16 only
  auto machine = test::single_switch_machine(1, unit, test::link_model("1GB/s", "1us"));
  auto trace =
      one_op_trace({core::Flops(1e12), core::Bytes(0.0), core::Dtype::kFp8, core::WorkKind::kMatrix, 1});
  CHECK_THROWS_WITH(
      engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective()),
      "one-op: /roles/0/ops/0/dtype: rank 0 runs on a \"test-gpu\", which has no matrix peak for fp8");
}

TEST_CASE("on a mixed machine each rank computes at its own unit's speed") {
  topology::Machine m;
  m.name = "mixed";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 0.5, "0s"));
  auto npu_json = test::unit_model_json("250TFLOPS", 0.5, "0s");
  npu_json["name"] = "test-npu";
  core::JsonObject npu_obj(npu_json, "npu.json", "");
  m.unit_models.push_back(hw::ComputeUnitModel::from_json(npu_obj));
  m.link_models.push_back(test::link_model("100GB/s", "1us"));
  auto sw = m.topology.add_switch("sw");
  m.topology.add_link(m.topology.add_unit("gpu", 0), sw, 0);
  m.topology.add_link(m.topology.add_unit("npu", 1), sw, 0);
  workload::Trace t;
  t.name = "same-work";
  t.mesh = workload::Mesh({{"dp", 2}});
  t.streams = {"compute"};
  t.roles = {{"rank",
              {{"gemm",
                "forward",
                0,
                {},
                workload::ComputeOp{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kBf16,
                                    core::WorkKind::kMatrix, 1}}}}};
  auto r = engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(r.replay.ranks[0].compute.value() == zs::test::approx(1e12 / 0.5e15).epsilon(1e-12));
  CHECK(r.replay.ranks[1].compute.value() == zs::test::approx(1e12 / 125e12).epsilon(1e-12));
  CHECK(r.peak.value() == 1e15 + 250e12);
}

TEST_CASE(
    "an op that needs more HBM than the unit has is a capacity error naming the need and the capacity") {
  auto m =
      test::single_switch_machine(2, test::unit_model("1PFLOPS", 1, "0s"), test::link_model("1GB/s", "1us"));
  workload::Trace t;
  t.name = "big.json";
  t.mesh = workload::Mesh({{"dp", 2}});
  t.streams = {"compute"};
  workload::ComputeOp op{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1};
  op.memory = core::Bytes(96e9);
  t.roles = {{"rank", {{"huge-layer", "forward", 0, {}, op}}}};
  CHECK_THROWS_WITH_AS(
      engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective()),
      "big.json: /roles/0/ops/0/memory: capacity: op \"huge-layer\" needs 96GB of HBM, but a "
      "\"test-gpu\" (rank 0) has 80GB",
      core::InputError);
  std::get<workload::ComputeOp>(t.roles[0].ops[0].body).memory = core::Bytes(80e9);  // exactly fits
  CHECK(engine::simulate(m, t, policy::LinearPlacement(), policy::RingCollective())
            .replay.iteration_time.value() == zs::test::approx(1e-3));
}

TEST_CASE("a chain of compute ops runs as one activity with the same times, a branch point ends it") {
  // Rank program: a -> b -> c on the compute stream, and d on a second stream depending on b. b has two
  // successors (c, d), so the chain is {a, b}; c and d start when b ends, at 3 ms.
  auto unit = test::unit_model("1PFLOPS", 0.5, "0s");
  auto machine = test::single_switch_machine(1, unit, test::link_model("1GB/s", "1us"));
  auto op = [](const char* name, uint32_t stream, std::vector<uint32_t> deps, double flops) {
    return workload::Op{name, "forward", stream, std::move(deps),
                        workload::ComputeOp{core::Flops(flops), core::Bytes(0.0), core::Dtype::kBf16,
                                            core::WorkKind::kMatrix, 1}};
  };
  workload::Trace t;
  t.name = "chain";
  t.mesh = workload::Mesh({{"dp", 1}});
  t.streams = {"compute", "side"};
  // 1 ms, 2 ms, 3 ms on the compute stream; 10 ms on the side stream after b.
  t.roles = {{"rank",
              {op("a", 0, {}, 0.5e12), op("b", 0, {}, 1e12), op("c", 0, {}, 1.5e12), op("d", 1, {1}, 5e12)}}};
  t.model_flops = core::Flops(8e12);
  auto r = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  // c (3 ms of work) and d (10 ms) share the unit from 3 ms: c ends at 3 + 2 x 3 = 9 ms, d has 7 ms left
  // and ends at 16 ms.
  CHECK(r.replay.compute_activities == 3);  // {a, b}, c, d
  CHECK(r.replay.iteration_time.value() == zs::test::approx(16e-3).epsilon(1e-9));
  // Without the branch: three ops in a row are one activity and take exactly their sum.
  t.roles = {{"rank", {op("a", 0, {}, 0.5e12), op("b", 0, {}, 1e12), op("c", 0, {}, 1.5e12)}}};
  t.streams = {"compute"};
  auto chained = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  CHECK(chained.replay.compute_activities == 1);
  CHECK(chained.replay.iteration_time.value() == zs::test::approx(6e-3).epsilon(1e-12));
  CHECK(chained.replay.ranks[0].compute.value() == zs::test::approx(6e-3).epsilon(1e-12));
}

TEST_CASE("in-range values that combine beyond what the engine represents: one error, not an abort") {
  // 10^30 FLOPs (the largest count a file may state) on a unit of 1 FLOP/s (the slowest): 2 x 10^30 s.
  auto slowest = test::unit_model("1FLOPS", 0.5, "0s");
  workload::ComputeOp op{core::Flops(1e30), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1};
  try {
    simulate_one(slowest, op);
    FAIL("no error");
  } catch (const engine::EngineValueError& e) {
    CHECK(std::string(e.what()) ==
          "the simulation derived a compute duration (s) of 2e+30, outside [0, 1e+18]: the scenario's values "
          "combine beyond what the engine can represent");
  }
  CHECK(engine::checked_engine_value(3.5, "x") == 3.5);
  for (double bad : {-1.0, std::nan(""), HUGE_VAL, 2e300})
    CHECK_THROWS_AS(engine::checked_engine_value(bad, "x"), engine::EngineValueError);
}

TEST_CASE("a rank in a collective before its last member joins is waiting, not communicating") {
  // Two ranks on one switch: rank 0 computes 0.5 s, rank 1 1 s, then both all-reduce 1 GB (a ring of two:
  // 2 x 1/2 x S / B = 1 s at 1 GB/s, plus microseconds of hops). Rank 0 waits 0.5 s for rank 1, then both
  // move data for 1 s: rank 0's exposed communication is the transfers' 1 s, its waiting the 0.5 s; rank 1
  // waits for nobody.
  auto unit = test::unit_model("1PFLOPS", 0.5, "0s");
  auto machine = test::single_switch_machine(2, unit, test::link_model("1GB/s", "1us"));
  workload::Trace t = two_rank_trace("wait", "dp", {"compute", "comm"});
  auto program = [](double flops) {
    return std::vector<workload::Op>{
        gemm(flops),
        {"reduce",
         "backward",
         1,
         {0},
         workload::CollectiveOp{workload::CollectiveKind::kAllReduce, "dp", core::Bytes(1e9)}}};
  };
  t.roles = {{"early", program(0.25e15)}, {"late", program(0.5e15)}};
  t.model_flops = core::Flops(0.75e15);
  const auto r = engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective());
  const auto& early = r.replay.ranks[0];
  const auto& late = r.replay.ranks[1];
  CHECK(early.collective_wait.value() == zs::test::approx(0.5).epsilon(1e-9));
  CHECK(early.exposed_comm.value() == zs::test::approx(1.0).epsilon(1e-5));  // plus a few us of hops
  CHECK(late.collective_wait.value() == 0.0);
  CHECK(late.exposed_comm.value() == zs::test::approx(1.0).epsilon(1e-5));
  const double terms = early.compute.value() + early.exposed_comm.value() + early.pipeline_bubble.value() +
                       early.memory_stall.value() + early.collective_wait.value() + early.idle.value();
  CHECK(terms == zs::test::approx(r.replay.iteration_time.value()).epsilon(1e-12));
  CHECK(early.exposed_by_communicator.at(0).second.value() == zs::test::approx(early.exposed_comm.value()));
}
