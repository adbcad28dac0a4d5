// Data-parallel communication overlapped with compute (Megatron-LM's --overlap-grad-reduce and
// --overlap-param-gather), replayed: only the first-reduced and first-gathered buckets stay exposed.
#include <doctest/doctest.h>

#include <string>

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

/// 8 equal layers of 12.6 M parameters (h 1024), embeddings of 1 M (V = 8, 1,024 positions).
workload::TransformerSpec model() {
  return test::gpt("dp-overlap", 8, 1024, 8, 4096, 8, 1024);
}

/// Seconds rank 0's data-parallel collectives were exposed, and the iteration time.
std::pair<double, double> exposed_dp(bool overlap_reduction, bool overlap_gather) {
  // Each layer's gradients are 25 MB in bf16, reduce-scattered over 4 ranks in about 0.2 ms at 100 GB/s,
  // against about 1 ms of backward per layer and micro-batch at 50 TFLOP/s.
  workload::ParallelPlan plan;
  plan.data_parallel = 4;
  plan.global_batch = 16;  // 4 micro-batches per replica
  plan.zero_stage = 1;
  plan.gradient_dtype = core::Dtype::kBf16;
  plan.gradient_clipping = false;
  plan.overlap_gradient_reduction = overlap_reduction;
  plan.overlap_parameter_gather = overlap_gather;
  auto machine = test::single_switch_machine(4, test::unit_model("100TFLOPS", 0.5, "0s"),
                                             test::link_model("100GB/s", "1us"));
  auto r = engine::simulate(machine, workload::generate_megatron_trace(model(), plan),
                            policy::LinearPlacement(), policy::RingCollective());
  return {test::exposed_on(r.replay.ranks[0], "dp"), r.replay.iteration_time.value()};
}

}  // namespace

TEST_CASE("overlapped data-parallel communication: one bucket of each kind exposed instead of all of them") {
  // Not overlapped, the reduce-scatter and the all-gather of every parameter follow the backward. Overlapped,
  // each layer's reduce-scatter hides behind the backward of the layers before it and each all-gather
  // behind the forward of the layers after it, except the last reduced and the first gathered: layer 0's
  // bucket, which also holds the embeddings. Exposed time goes with the parameters each leaves exposed.
  const double total = model().total_params(), layer = model().layer_params(0);
  const double first = layer + (total - 8 * layer);
  const auto [plain, plain_time] = exposed_dp(false, false);
  const auto [reduced, reduced_time] = exposed_dp(true, false);
  const auto [both, both_time] = exposed_dp(true, true);
  const double per_param = plain / (2 * total);  // one collective's seconds per parameter
  CHECK(plain > 1e-3);
  CHECK(reduced == test::approx(per_param * (first + total)).epsilon(0.03));
  CHECK(both == test::approx(per_param * 2 * first).epsilon(0.03));
  // The iteration shortens by what is hidden (no interference in this unit model).
  CHECK(plain_time - reduced_time == test::approx(per_param * (total - first)).epsilon(0.03));
  CHECK(plain_time - both_time == test::approx(per_param * 2 * (total - first)).epsilon(0.03));
}
