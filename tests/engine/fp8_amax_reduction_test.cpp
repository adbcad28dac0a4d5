// Transformer Engine's amax reductions replayed: each chunk pass ends with a small all-reduce on the compute
// stream, so the iteration grows by their latency-bound ring times.
#include <doctest/doctest.h>

#include <utility>

#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/exposed_on.hpp"
#include "support/test_machines.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"

using namespace zs;

namespace {

/// Seconds rank 0's amax all-reduces were exposed, and the iteration time: 4 layers (h 1024) on 4
/// data-parallel ranks, 4 micro-batches each, fp8 products.
std::pair<double, double> amax_run(bool reduce) {
  workload::ParallelPlan plan;
  plan.data_parallel = 4;
  plan.global_batch = 16;
  plan.gradient_clipping = false;
  plan.fp8 = workload::Fp8Recipe::kTransformerEngine;
  plan.fp8_amax_reduction = reduce;
  auto unit = test::unit_model_json("100TFLOPS", 0.5, "0s");
  unit["matrix_peak"]["fp8"] = "200TFLOPS";
  unit["sources"]["matrix_peak.fp8"] = "test value";
  core::JsonObject o(unit, "test-gpu.json", "");
  auto machine =
      test::single_switch_machine(4, hw::ComputeUnitModel::from_json(o), test::link_model("100GB/s", "1us"));
  const auto model = test::gpt("amax", 4, 1024, 8, 4096, 8, 1024);
  auto r = engine::simulate(machine, workload::generate_megatron_trace(model, plan),
                            policy::LinearPlacement(), policy::RingCollective());
  return {test::exposed_on(r.replay.ranks[0], "amax"), r.replay.iteration_time.value()};
}

}  // namespace

TEST_CASE("fp8 amax reductions: 8 ring all-reduces of 4 ranks, each 6 steps of two 1 us links") {
  // 4 micro-batches, a forward and a backward reduction each. A step sends 1/4 of at most 192 B (4 layers x
  // 4 products x 3 amaxes x 4 B) at 100 GB/s, under a nanosecond, after the 2 us route (unit, switch, unit).
  const auto [exposed, with] = amax_run(true);
  const auto [none, without] = amax_run(false);
  const double expected = 8 * 6 * 2e-6;
  CHECK(none == 0.0);
  CHECK(exposed == test::approx(expected).epsilon(0.01));
  CHECK(with - without == test::approx(expected).epsilon(0.01));  // nothing hides them
}
