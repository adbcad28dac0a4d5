// The data-parallel generator: op structure, FLOP and byte totals, gradient sync placement.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_models.hpp"

#include "core/input_error.hpp"
#include "workload/data_parallel_generator.hpp"

using namespace zs;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {
workload::TransformerSpec small_model() {
  return test::gpt("small", 3, 512, 8, 2048, 1000, 256);
}
}  // namespace

TEST_CASE("one iteration: FLOPs add up to the model's and gradients are all-reduced once") {
  auto model = small_model();
  workload::DataParallelPlan plan{4, 2, 24};  // 3 accumulation steps
  CHECK(plan.accumulation_steps() == 3);
  auto trace = workload::generate_data_parallel_trace(model, plan);
  workload::validate(trace, "gen");
  REQUIRE(trace.roles.size() == 1);
  const auto& ops = trace.roles[0].ops;
  // Per micro-batch: 3 forward + logits forward + logits backward + 3 backward; then syncs and the optimizer.
  size_t compute = 0, collectives = 0;
  double flops = 0, sync_bytes = 0;
  for (const auto& op : ops) {
    if (const auto* c = std::get_if<ComputeOp>(&op.body)) {
      ++compute;
      if (op.phase != "optimizer") flops += c->flops.value();
    } else {
      ++collectives;
      const auto& c2 = std::get<CollectiveOp>(op.body);
      CHECK(c2.communicator == "dp");
      CHECK(op.stream == 1);
      sync_bytes += c2.bytes.value();
    }
  }
  CHECK(compute == 3 * 8 + 1);
  CHECK(collectives == 3);
  // Every rank does 1/dp of the model FLOPs.
  CHECK(flops * plan.data_parallel == zs::test::approx(trace.model_flops.value()).epsilon(1e-12));
  CHECK(trace.model_flops.value() == model.training_flops(24).value());
  // All-reduced bytes are every parameter's bf16 gradient.
  CHECK(sync_bytes == zs::test::approx(2 * model.total_params()).epsilon(1e-12));
  CHECK(trace.tokens_per_iteration == 24.0 * 256);
  // The optimizer waits for every gradient all-reduce.
  CHECK(ops.back().phase == "optimizer");
  CHECK(ops.back().deps.size() == 3);
}

TEST_CASE("a global batch that is not a multiple of dp x micro-batch is an input error") {
  nlohmann::json j = {{"data_parallel", 8}, {"micro_batch", 4}, {"global_batch", 60}};
  core::ParamReader o(workload::DataParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
  CHECK_THROWS_WITH(workload::DataParallelPlan::from_params(o),
                    "s.json: /workload/global_batch: global batch 60 is not a multiple of data_parallel x "
                    "micro_batch = 32");
}

TEST_CASE("model state is 16 bytes per parameter") {
  auto model = small_model();
  CHECK(workload::model_state_bytes(model).value() == 16 * model.total_params());
}
