// Pipeline schedules replayed: the bubble fraction is (p-1)/(m+p-1) for GPipe and 1F1B, (p-1)/(v m+p-1)
// interleaved, whether each receive is posted just before its step, a step ahead (Megatron-Core's
// overlapped exchanges) or batched as Megatron-LM 2021 ran them; overlapped exchanges hide a transfer.
#include <doctest/doctest.h>

#include "core/json_object.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"

using namespace zs;

TEST_CASE("replayed bubble fraction (p-1)/(m+p-1) with equal stage times") {
  // 8 equal layers, a negligible output layer (V = 8) and links of 1 PB/s: stage times are equal and a
  // 4 MB activation transfer takes about 4 ns against about 900 us of work per micro-batch (the closed
  // form has no transfer time; at 1 TB/s the 4 us transfers add about 1% to the bubble, 10% interleaved).
  auto m = test::gpt("equal", 8, 256, 4, 1024, 8, 2048);
  struct Case {
    uint32_t p, m;
  };
  for (bool batched : {false, true})
    for (auto schedule : {workload::PipelineSchedule::kGpipe, workload::PipelineSchedule::k1F1B})
      for (const auto& c : {Case{4, 8}, Case{4, 16}, Case{8, 8}, Case{2, 4}}) {
        CAPTURE(c.p);
        CAPTURE(c.m);
        CAPTURE(int(schedule));
        CAPTURE(batched);
        workload::ParallelPlan plan;
        plan.pipeline_parallel = c.p;
        plan.global_batch = c.m;
        plan.schedule = schedule;
        plan.batched_exchanges = batched;
        auto machine = test::single_switch_machine(int(c.p), test::unit_model("100TFLOPS", 0.5, "0s"),
                                                   test::link_model("1PB/s", "1ns"));
        auto r = engine::simulate(machine, workload::generate_megatron_trace(m, plan),
                                  policy::LinearPlacement(), policy::RingCollective());
        const double T = r.replay.iteration_time.value();
        const double expected = double(c.p - 1) / (c.m + c.p - 1);
        for (const auto& rank : r.replay.ranks) {
          double bubble = (T - rank.compute.value()) / T;  // waiting on neighbours, then idle at the end
          CHECK(bubble == zs::test::approx(expected).epsilon(0.01));
        }
        CHECK(r.replay.ranks[0].pipeline_bubble.value() > 0);
      }
}

TEST_CASE("interleaved 1F1B: replayed bubble fraction (p-1)/(v m + p-1) with equal chunk times") {
  // Narayanan et al. (SC'21, section 2.2.2): the bubble shrinks by the number of chunks v, to
  // (p-1)/(v m) of the ideal time, i.e. a fraction (p-1)/(v m + p-1) of the iteration.
  auto m = test::gpt("equal", 16, 256, 4, 1024, 8, 2048);
  struct Case {
    uint32_t p, m, v;
  };
  // Batched, as Megatron-LM 2021 ran it, including m = p (every step of a stage a warm-up forward):
  // the same bubble when the exchanges cost nothing.
  for (const auto& c : {Case{4, 8, 2}, Case{4, 16, 4}, Case{2, 4, 2}, Case{8, 8, 2}, Case{4, 4, 2},
                        Case{8, 16, 2}, Case{4, 8, 4}})
    for (int exchanges : {0, 1, 2}) {  // posted just before the step, batched, a step ahead
      CAPTURE(c.p);
      CAPTURE(c.m);
      CAPTURE(c.v);
      CAPTURE(exchanges);
      workload::ParallelPlan plan;
      plan.batched_exchanges = exchanges == 1;
      plan.overlap_pipeline_exchanges = exchanges == 2;
      plan.pipeline_parallel = c.p;
      plan.global_batch = c.m;
      plan.schedule = workload::PipelineSchedule::kInterleaved1F1B;
      plan.virtual_stages = c.v;
      auto machine = test::single_switch_machine(int(c.p), test::unit_model("100TFLOPS", 0.5, "0s"),
                                                 test::link_model("1PB/s", "1ns"));
      auto trace = workload::generate_megatron_trace(m, plan);
      workload::validate(trace, "interleaved");
      auto r = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
      const double T = r.replay.iteration_time.value();
      const double expected = double(c.p - 1) / (c.v * c.m + c.p - 1);
      for (const auto& rank : r.replay.ranks) {
        double bubble = (T - rank.compute.value()) / T;
        CHECK(bubble == zs::test::approx(expected).epsilon(0.02));
      }
    }
}

TEST_CASE(
    "batched exchanges run beside no compute: the overlap slowdown leaves an interleaved pipeline's "
    "compute") {
  // Overlapped, a send posted at the end of its step waits on its stream for the receiving stage while
  // the sender computes on (and is charged the slowdown); batched, the sender waits for it instead.
  auto m = test::gpt("equal", 16, 256, 4, 1024, 8, 2048);
  auto json = test::unit_model_json("100TFLOPS", 0.5, "0s");
  auto compute_of = [&](double slowdown, bool batched) {
    json["overlap_slowdown"] = slowdown;
    json["sources"]["overlap_slowdown"] = "test value";
    core::JsonObject o(json, "test-gpu.json", "");
    auto machine = test::single_switch_machine(4, hw::ComputeUnitModel::from_json(o),
                                               test::link_model("100GB/s", "1us"));
    workload::ParallelPlan plan;
    plan.pipeline_parallel = 4;
    plan.global_batch = 8;
    plan.schedule = workload::PipelineSchedule::kInterleaved1F1B;
    plan.virtual_stages = 2;
    plan.batched_exchanges = batched;
    auto r = engine::simulate(machine, workload::generate_megatron_trace(m, plan), policy::LinearPlacement(),
                              policy::RingCollective());
    return r.replay.ranks[1].compute.value();
  };
  CHECK(compute_of(0.25, true) == zs::test::approx(compute_of(0.0, true)).epsilon(1e-9));
  CHECK(compute_of(0.25, false) > 1.01 * compute_of(0.0, false));
}

namespace {

/// An interleaved pipeline of 4 stages (2 chunks, `micro_batches`) on links of `bandwidth`: its iteration
/// time, s, and the compute time of stage 1, s, with the unit model's `slowdown` beside communication.
std::pair<double, double> interleaved_run(uint32_t micro_batches, const char* bandwidth, double slowdown,
                                          bool overlapped) {
  auto m = test::gpt("equal", 16, 256, 4, 1024, 8, 2048);
  auto json = test::unit_model_json("100TFLOPS", 0.5, "0s");
  json["overlap_slowdown"] = slowdown;
  json["sources"]["overlap_slowdown"] = "test value";
  core::JsonObject o(json, "test-gpu.json", "");
  auto machine =
      test::single_switch_machine(4, hw::ComputeUnitModel::from_json(o), test::link_model(bandwidth, "1us"));
  workload::ParallelPlan plan;
  plan.pipeline_parallel = 4;
  plan.global_batch = micro_batches;
  plan.schedule = workload::PipelineSchedule::kInterleaved1F1B;
  plan.virtual_stages = 2;
  plan.overlap_pipeline_exchanges = overlapped;
  auto r = engine::simulate(machine, workload::generate_megatron_trace(m, plan), policy::LinearPlacement(),
                            policy::RingCollective());
  return {r.replay.iteration_time.value(), r.replay.ranks[1].compute.value()};
}

/// How much longer the transfers of 100 GB/s links make that pipeline's iteration than free ones, s.
double exposed_transfers(uint32_t micro_batches, bool overlapped) {
  return interleaved_run(micro_batches, "100GB/s", 0.0, overlapped).first -
         interleaved_run(micro_batches, "1PB/s", 0.0, overlapped).first;
}

}  // namespace

TEST_CASE(
    "overlapped exchanges: a transfer shorter than a step is hidden in the steady state, and kernels "
    "waiting on a neighbour run beside less compute") {
  // Each step computes 2 layers (about 480 us); its 1 MiB activation (2048 tokens x 256 x bf16) takes
  // about 10.5 us at 100 GB/s, plus the link's 1 us. The bounds below count in pairs of transfers: two
  // activations' wire time plus one latency, about 22 us.
  const double two_transfers = 2.0 * 1024 * 1024 / 100e9 + 1e-6;
  const double plain8 = exposed_transfers(8, false), plain16 = exposed_transfers(16, false);
  const double ahead8 = exposed_transfers(8, true), ahead16 = exposed_transfers(16, true);
  // Posted just before its step, each receive of the steady state is exposed: 8 more micro-batches add
  // 16 steady steps per stage, so more than 16 transfers. Posted a step ahead, only the fill's and the
  // drain's are.
  CHECK(plain16 - plain8 > 8 * two_transfers);
  CHECK(std::abs(ahead16 - ahead8) < 0.1 * two_transfers);
  CHECK(ahead8 < plain8);
  // Interference: a kernel counts as communicating from its post to its transfer's end. Posted a step
  // ahead, a receive waits for its sender's step to end; posted just before its step, a send waits on its
  // stream while the sender computes on, for longer.
  const double compute = interleaved_run(8, "100GB/s", 0.0, true).second;
  const double slowed = interleaved_run(8, "100GB/s", 0.25, true).second;
  const double slowed_plain = interleaved_run(8, "100GB/s", 0.25, false).second;
  CHECK(slowed > compute);
  CHECK(slowed_plain - compute > 2 * (slowed - compute));
}
