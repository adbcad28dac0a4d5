// The Megatron-style generator: FLOPs and parameters add up across ranks; plans are checked.
#include <doctest/doctest.h>

#include "support/test_models.hpp"

#include "core/input_error.hpp"
#include "workload/megatron_generator.hpp"

using namespace zs;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {
workload::TransformerSpec model() {
  return test::gpt("m", 8, 512, 8, 2048, 1000, 256);
}

workload::ParallelPlan plan(uint32_t dp, uint32_t tp, uint32_t pp, uint32_t mb, uint32_t gb,
                            workload::PipelineSchedule s = workload::PipelineSchedule::k1F1B) {
  workload::ParallelPlan p;
  p.data_parallel = dp;
  p.tensor_parallel = tp;
  p.pipeline_parallel = pp;
  p.micro_batch = mb;
  p.global_batch = gb;
  p.schedule = s;
  return p;
}
}  // namespace

TEST_CASE("every rank's share adds up to the model's FLOPs and parameters") {
  for (auto schedule : {workload::PipelineSchedule::kGpipe, workload::PipelineSchedule::k1F1B}) {
    auto p = plan(2, 4, 4, 2, 16, schedule);
    auto trace = workload::generate_megatron_trace(model(), p);
    workload::validate(trace, "gen");
    REQUIRE(trace.roles.size() == 4);
    double flops = 0, dp_bytes = 0;
    size_t tp_all_reduces = 0, sends = 0, recvs = 0;
    for (const auto& role : trace.roles)
      for (const auto& op : role.ops) {
        if (const auto* c = std::get_if<ComputeOp>(&op.body)) {
          if (op.phase != "optimizer") flops += c->flops.value();
        } else if (const auto* c = std::get_if<CollectiveOp>(&op.body)) {
          if (c->communicator == "tp") ++tp_all_reduces;
          if (c->communicator == "dp") dp_bytes += c->bytes.value();
        } else if (const auto* q = std::get_if<workload::P2POp>(&op.body)) {
          (q->direction == workload::P2PDirection::kSend ? sends : recvs)++;
        }
      }
    // Each role program runs on dp x tp ranks.
    CHECK(flops * 2 * 4 == doctest::Approx(trace.model_flops.value()).epsilon(1e-12));
    // 4 micro-batches per replica; 2 layers per stage; 2 all-reduces per layer each way.
    CHECK(tp_all_reduces == 4 * 4 * 2 * 2 * 2);
    // Activations forward and gradients backward across the 3 stage boundaries, per micro-batch.
    CHECK(sends == 2 * 3 * 4);
    CHECK(recvs == sends);
    // Gradients all-reduced over dp: every parameter once (the tied embedding twice: first and last
    // stage each keep a copy), in bf16, 1/tp per rank.
    CHECK(dp_bytes * 4 == doctest::Approx(2 * (model().total_params() + 1000.0 * 512)).epsilon(1e-12));
  }
}

TEST_CASE("1F1B warms up pp - stage - 1 forwards; GPipe runs every forward first") {
  auto trace = workload::generate_megatron_trace(model(), plan(1, 1, 4, 1, 8));
  auto first_backward = [&](size_t stage) {
    size_t forwards = 0;
    for (const auto& op : trace.roles[stage].ops) {
      if (op.phase == "backward") break;
      if (op.name.find("attention/forward") != std::string::npos &&
          op.name.find("layer" + std::to_string(2 * stage) + "/") != std::string::npos)
        ++forwards;
    }
    return forwards;
  };
  CHECK(first_backward(0) == 4);  // 3 warm-up forwards + the first steady-state one
  CHECK(first_backward(3) == 1);
  auto gpipe =
      workload::generate_megatron_trace(model(), plan(1, 1, 4, 1, 8, workload::PipelineSchedule::kGpipe));
  size_t forwards = 0;
  for (const auto& op : gpipe.roles[0].ops) {
    if (op.phase == "backward") break;
    if (op.name.find("layer0/attention/forward") != std::string::npos) ++forwards;
  }
  CHECK(forwards == 8);
}

TEST_CASE("impossible plans name the constraint that failed") {
  auto error_of = [](nlohmann::json j, workload::TransformerSpec m) {
    try {
      core::JsonObject o(j, "s.json", "/workload");
      workload::ParallelPlan::from_json(o, m);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  nlohmann::json j = {{"data_parallel", 1},
                      {"tensor_parallel", 1},
                      {"pipeline_parallel", 3},
                      {"micro_batch", 1},
                      {"global_batch", 4}};
  CHECK(error_of(j, model()) ==
        "s.json: /workload/pipeline_parallel: pipeline_parallel 3 does not divide the layers (8)");
  j["pipeline_parallel"] = 2;
  j["tensor_parallel"] = 3;
  CHECK(error_of(j, model()) ==
        "s.json: /workload/tensor_parallel: tensor_parallel 3 does not divide the attention heads (8)");
  j["tensor_parallel"] = 2;
  j["schedule"] = "interleaved";
  CHECK(
      error_of(j, model()) ==
      "s.json: /workload/schedule: unknown schedule \"interleaved\" (known: gpipe, 1f1b, interleaved-1f1b)");
  j.erase("schedule");
  auto moe = model();
  moe.moe = workload::MoeSpec{8, 2, 0, 1024, 0, 1.0};
  CHECK(error_of(j, moe) ==
        "s.json: /workload/sequence_parallel: a Mixture-of-Experts model with tensor_parallel > 1 needs "
        "sequence_parallel: true (experts run on each rank's token shard)");
  j["sequence_parallel"] = true;
  j["expert_parallel"] = 3;
  CHECK(error_of(j, moe) ==
        "s.json: /workload/expert_parallel: expert_parallel 3 does not divide the routed experts (8)");
  j["expert_parallel"] = 2;
  CHECK(error_of(j, moe) ==
        "s.json: /workload/expert_parallel: expert_parallel 2 does not divide data_parallel (1)");
  j["expert_parallel"] = 1;
  j["schedule"] = "interleaved-1f1b";
  j["virtual_stages"] = 2;
  j["global_batch"] = 3;
  CHECK(error_of(j, model()) ==
        "s.json: /workload/global_batch: the interleaved schedule needs the micro-batches "
        "per replica (3) to be a multiple of pipeline_parallel");
  j["virtual_stages"] = 3;
  CHECK(error_of(j, model()) ==
        "s.json: /workload/virtual_stages: pipeline_parallel 2 x virtual_stages 3 does not "
        "divide the layers (8)");
  j["schedule"] = "1f1b";
  CHECK(error_of(j, model()) ==
        "s.json: /workload/virtual_stages: virtual stages need the \"interleaved-1f1b\" schedule");
}
