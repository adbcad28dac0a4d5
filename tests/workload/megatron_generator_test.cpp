// The Megatron-style generator: FLOPs and parameters add up across ranks; plans are checked.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_models.hpp"

#include <algorithm>
#include <map>
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "support/temp_dir.hpp"

#include "workload/megatron_generator.hpp"
#include "workload/memory_accounting.hpp"

using namespace zs;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {
workload::TransformerSpec model() {
  return test::small_gpt();
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

/// Two stages of two chunks each, four micro-batches: the smallest interleaved pipeline with a steady state.
workload::ParallelPlan interleaved_plan() {
  auto p = plan(1, 1, 2, 1, 4, workload::PipelineSchedule::kInterleaved1F1B);
  p.virtual_stages = 2;
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
    size_t tp_all_reduces = 0, tp_all_gathers = 0, sends = 0, recvs = 0;
    for (const auto& role : trace.roles)
      for (const auto& op : role.ops) {
        if (const auto* c = std::get_if<ComputeOp>(&op.body)) {
          if (op.phase != "optimizer" && c->kind == zs::core::WorkKind::kMatrix) flops += c->flops.value();
        } else if (const auto* c = std::get_if<CollectiveOp>(&op.body)) {
          if (c->communicator == "tp")
            ++(c->kind == workload::CollectiveKind::kAllGather ? tp_all_gathers : tp_all_reduces);
          if (c->communicator == "dp") dp_bytes += c->bytes.value();
        } else if (const auto* q = std::get_if<workload::P2POp>(&op.body)) {
          (q->direction == workload::P2PDirection::kSend ? sends : recvs)++;
        }
      }
    // Each role program runs on dp x tp ranks.
    CHECK(flops * 2 * 4 == zs::test::approx(trace.model_flops.value()).epsilon(1e-12));
    // 4 micro-batches per replica; 2 layers per stage; 2 all-reduces per layer each way.
    // and the loss's 3 per micro-batch on the last stage.
    CHECK(tp_all_reduces == 4 * 4 * 2 * 2 * 2 + 4 * 3);
    // Activations forward and gradients backward across the 3 stage boundaries, per micro-batch; and the
    // tied embedding's gradients between the first and the last stage, once each way.
    CHECK(sends == 2 * 3 * 4 + 2);
    CHECK(recvs == sends);
    // Without sequence parallelism every receive of b s h / tp elements is followed by its all-gather
    // over tp (Megatron's scatter/gather); not the embedding gradients', which each rank holds whole.
    CHECK(tp_all_gathers == recvs - 2);
    // Gradients all-reduced over dp: every parameter once (the tied embedding twice: first and last
    // stage each keep a copy), in fp32 (Megatron-LM's gradients of a bf16 model), 1/tp per rank.
    CHECK(dp_bytes * 4 == zs::test::approx(4 * (model().total_params() + 1000.0 * 512)).epsilon(1e-12));
  }
}

TEST_CASE("1F1B warms up pp - stage - 1 forwards, GPipe runs every forward first") {
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
      core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
      workload::ParallelPlan::from_params(o, m);
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
        "s.json: /workload/pipeline_parallel: pipeline_parallel 3 does not divide the layers (8); "
        "layers_per_stage can split them unevenly");
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
  j["expert_tensor_parallel"] = 3;
  CHECK(error_of(j, moe) ==
        "s.json: /workload/expert_tensor_parallel: expert_tensor_parallel 3 is neither 1 nor tensor_parallel "
        "(2); other splits re-lay the experts' mesh, which is not modelled");
  j["expert_tensor_parallel"] = 2;
  CHECK(
      error_of(j, model()) ==
      "s.json: /workload/expert_tensor_parallel: expert tensor parallelism needs a Mixture-of-Experts model");
  j.erase("expert_tensor_parallel");
  j["expert_parallel"] = 2;
  j["data_parallel"] = 2;
  j["pipeline_parallel"] = 1;
  j["overlap_expert_communication"] = true;
  j["batched_exchanges"] = true;
  CHECK(error_of(j, moe) ==
        "s.json: /workload/batched_exchanges: batched exchanges are Megatron-LM 2021's schedules, which have "
        "no combined 1F1B (overlap_expert_communication)");
  for (const char* key : {"overlap_expert_communication", "batched_exchanges"}) j.erase(key);
  j["expert_parallel"] = 1;
  j["data_parallel"] = 1;
  j["pipeline_parallel"] = 2;
  j["schedule"] = "interleaved-1f1b";
  j["virtual_stages"] = 2;
  j["global_batch"] = 3;
  CHECK(
      error_of(j, model()) ==
      "s.json: /workload/global_batch: the interleaved schedule's last micro-batch group would hold 1 "
      "micro-batches (3 per replica in groups of 2), fewer than pipeline_parallel 2: choose microbatch_group "
      "so that it divides them or leaves at least 2");
  j["virtual_stages"] = 3;
  CHECK(error_of(j, model()) ==
        "s.json: /workload/virtual_stages: pipeline_parallel 2 x virtual_stages 3 does not "
        "divide the layers (8); layers_per_stage can split them unevenly");
  j["schedule"] = "1f1b";
  CHECK(error_of(j, model()) ==
        "s.json: /workload/virtual_stages: virtual stages need the \"interleaved-1f1b\" schedule");
  j.erase("virtual_stages");
  j["global_batch"] = 4;
  j["recompute_layers"] = 2;
  CHECK(error_of(j, model()) ==
        "s.json: /workload/recompute_layers: recompute_layers applies to full recomputation, but recompute "
        "is \"none\"");
  j["recompute_layers"] = 1;  // the defaults, as a resolved configuration writes them, are accepted
  j["recompute_method"] = "uniform";
  CHECK(error_of(j, model()) == "(no error)");
  j["recompute_method"] = "block";
  CHECK(error_of(j, model()) ==
        "s.json: /workload/recompute_method: recompute_method applies to full recomputation, but recompute "
        "is \"none\"");
}

namespace {
workload::TransformerSpec moe_model() {
  auto m = test::gpt("moe", 4, 512, 8, 2048, 1000, 256);
  m.moe = workload::MoeSpec{8, 2, 1, 512, 0, 0.0};
  return m;
}

/// Sums matrix FLOPs of every rank (non-optimizer compute at nominal expert load; the memory-bound
/// element-wise ops are not model FLOPs) and bytes per communicator.
struct Totals {
  double flops = 0;
  std::map<std::string, double> bytes;
  std::map<std::string, size_t> count;
};
Totals totals(const workload::Trace& trace) {
  Totals t;
  const auto pp = *trace.mesh.axis_index("pp");
  const double ranks_per_role = double(trace.mesh.size()) / trace.mesh.axes()[pp].size;
  for (const auto& role : trace.roles)
    for (const auto& op : role.ops) {
      if (const auto* c = std::get_if<ComputeOp>(&op.body)) {
        if (op.phase != "optimizer" && c->kind == zs::core::WorkKind::kMatrix)
          t.flops += c->flops.value() * ranks_per_role;
      } else if (const auto* c = std::get_if<CollectiveOp>(&op.body)) {
        // The loss's collectives apart: "loss:all-reduce".
        const bool loss = op.name.find("/loss/") != std::string::npos;
        const std::string key =
            (loss ? "loss" : c->communicator) + ":" + std::string(workload::to_string(c->kind));
        t.bytes[key] += c->bytes.value();
        ++t.count[key];
      }
    }
  return t;
}
}  // namespace

TEST_CASE("FLOPs add up to the model's under every kind of parallelism, plus what recomputation adds") {
  struct Case {
    bool moe;
    uint32_t dp, tp, pp, cp, ep, zero, v;
    bool sp;
    workload::Recompute recompute;
  };
  using R = workload::Recompute;
  for (const auto& c :
       {Case{false, 2, 2, 2, 1, 1, 0, 1, true, R::kNone}, Case{false, 1, 2, 2, 2, 1, 1, 1, false, R::kNone},
        Case{false, 2, 1, 2, 1, 1, 3, 2, false, R::kFull},
        Case{false, 2, 2, 1, 1, 1, 2, 1, true, R::kSelective},
        Case{true, 4, 2, 2, 1, 4, 1, 1, true, R::kNone}, Case{true, 4, 1, 1, 2, 2, 3, 1, false, R::kFull}}) {
    CAPTURE(c.moe);
    CAPTURE(c.zero);
    auto m = c.moe ? moe_model() : model();
    auto p = plan(c.dp, c.tp, c.pp, 1, c.dp * 4);
    p.context_parallel = c.cp;
    p.expert_parallel = c.ep;
    p.zero_stage = c.zero;
    p.sequence_parallel = c.sp;
    p.recompute = c.recompute;
    if (c.v > 1) {
      p.schedule = workload::PipelineSchedule::kInterleaved1F1B;
      p.virtual_stages = c.v;
    }
    auto trace = workload::generate_megatron_trace(m, p);
    workload::validate(trace, "gen");
    double expected = trace.model_flops.value();
    const double batch = p.global_batch;
    double layers_forward = 0, scores = 0;
    for (uint32_t l = 0; l < m.layers; ++l) layers_forward += m.layer_forward_flops(l, 1).value() * batch;
    scores = m.attention_score_flops(1).value() * batch * m.layers;
    if (c.recompute == R::kFull) expected += layers_forward;
    if (c.recompute == R::kSelective) expected += scores;
    CHECK(totals(trace).flops == zs::test::approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("parallel blocks exchange once per layer each way over tensor parallelism, at the same FLOPs") {
  auto m = model();
  for (bool sp : {false, true}) {
    CAPTURE(sp);
    auto p = plan(1, 4, 2, 1, 2);
    p.sequence_parallel = sp;
    const auto sequential = workload::generate_megatron_trace(m, p);
    auto parallel_model = m;
    parallel_model.parallel_blocks = true;
    const auto parallel = workload::generate_megatron_trace(parallel_model, p);
    auto sequential_totals = totals(sequential), parallel_totals = totals(parallel);
    CHECK(parallel_totals.flops == zs::test::approx(sequential_totals.flops).epsilon(1e-12));
    for (const char* key : {"tp:all-reduce", "tp:all-gather", "tp:reduce-scatter"}) {
      CAPTURE(key);
      // Outside the layers, the same: the pipeline receives' all-gathers (without sequence parallelism,
      // one per receive).
      const size_t outside = !sp && std::string(key) == "tp:all-gather" ? 4 : 0;
      CHECK(parallel_totals.count[key] - outside == (sequential_totals.count[key] - outside) / 2);
    }
  }
  // Activations: one norm input and one block input fewer, 4 s b h bytes per layer.
  auto p = plan(1, 1, 1, 1, 1);
  auto parallel_model = m;
  parallel_model.parallel_blocks = true;
  CHECK(workload::layer_activation_bytes(m, p, 0, workload::Recompute::kNone) -
            workload::layer_activation_bytes(parallel_model, p, 0, workload::Recompute::kNone) ==
        zs::test::approx(4.0 * 256 * 512));
}

TEST_CASE("partial recomputation reruns the forward of the layers it covers, a group at a time") {
  // 8 layers on 2 stages: 4 per stage. Block 3: layers 0-2 of each stage; uniform 3: groups 0-2 and 3.
  auto m = model();
  auto p = plan(1, 1, 2, 1, 2);
  p.recompute = workload::Recompute::kFull;
  auto recomputed_layers = [&](const workload::Trace& trace) {
    std::vector<std::string> order;  // stage 0's first backward: which layers' recompute, in order
    for (const auto& op : trace.roles[0].ops)
      if (op.name.find("/recompute/attention/forward") != std::string::npos && op.name.rfind("mb0/", 0) == 0)
        order.push_back(
            op.name.substr(op.name.find("layer"), op.name.find("/recompute") - op.name.find("layer")));
    return order;
  };
  const double layer = m.layer_forward_flops(0, 1).value() * p.global_batch;
  auto extra_flops = [&](const workload::Trace& trace) {
    return totals(trace).flops - trace.model_flops.value();
  };
  p.recompute_method = workload::RecomputeMethod::kBlock;
  p.recompute_layers = 3;
  auto block = workload::generate_megatron_trace(m, p);
  CHECK(extra_flops(block) == zs::test::approx(2 * 3 * layer).epsilon(1e-9));
  CHECK(recomputed_layers(block) == std::vector<std::string>{"layer2", "layer1", "layer0"});
  p.recompute_method = workload::RecomputeMethod::kUniform;
  auto uniform = workload::generate_megatron_trace(m, p);
  CHECK(extra_flops(uniform) == zs::test::approx(8 * layer).epsilon(1e-9));
  // Backward reaches layer 3 (a group of one) first, then reruns layers 0-2 together before layer 2's.
  CHECK(recomputed_layers(uniform) == std::vector<std::string>{"layer3", "layer0", "layer1", "layer2"});
  p.recompute_layers = 1;
  CHECK(recomputed_layers(workload::generate_megatron_trace(m, p)) ==
        std::vector<std::string>{"layer3", "layer2", "layer1", "layer0"});
}

TEST_CASE(
    "sequence parallelism turns each tensor-parallel all-reduce into a reduce-scatter and an all-gather") {
  auto p = plan(1, 4, 2, 1, 2);  // 2 micro-batches over 2 stages
  auto plain = totals(workload::generate_megatron_trace(model(), p));
  p.sequence_parallel = true;
  auto sp = totals(workload::generate_megatron_trace(model(), p));
  CHECK(sp.count["tp:all-reduce"] == 0);
  CHECK(sp.count["tp:reduce-scatter"] == plain.count["tp:all-reduce"]);
  // With sequence parallelism the pipeline exchange carries each rank's own shard; without it, each of the
  // 2 x 2 receives (activations forward, gradients backward, per micro-batch) is all-gathered over tp:
  // the full b s h activations (sequence 256, hidden 512).
  CHECK(sp.count["tp:all-gather"] == plain.count["tp:all-reduce"]);
  CHECK(plain.count["tp:all-gather"] == 2 * 2);
  CHECK(plain.bytes["tp:all-gather"] == zs::test::approx(4 * 256.0 * 512 * 2));  // b s h in bf16
  // Same volume: a ring all-reduce is a reduce-scatter then an all-gather of the same buffer.
  CHECK(sp.bytes["tp:reduce-scatter"] == plain.bytes["tp:all-reduce"]);
  // The loss: three all-reduces of one fp32 value per token and micro-batch, either way.
  CHECK(sp.count["loss:all-reduce"] == 2 * 3);
  CHECK(sp.bytes["loss:all-reduce"] == zs::test::approx(2 * 3 * 256.0 * 4));
}

TEST_CASE("ZeRO: gradients all-reduced (0), reduce-scattered once (1), per micro-batch (2), per layer (3)") {
  auto bytes_of = [](uint32_t zero) {
    auto p = plan(4, 1, 1, 1, 8);  // 2 micro-batches per replica
    p.zero_stage = zero;
    p.gradient_dtype = core::Dtype::kBf16;
    return totals(workload::generate_megatron_trace(model(), p));
  };
  const double psi = model().total_params() * 2;  // bf16 gradients and weights, one stage
  CHECK(bytes_of(0).bytes["dp:all-reduce"] == zs::test::approx(psi));
  CHECK(bytes_of(1).bytes["dp:reduce-scatter"] == zs::test::approx(psi));
  CHECK(bytes_of(1).bytes["dp:all-gather"] == zs::test::approx(psi));
  CHECK(bytes_of(2).bytes["dp:reduce-scatter"] == zs::test::approx(2 * psi));
  CHECK(bytes_of(2).bytes["dp:all-gather"] == zs::test::approx(psi));
  // ZeRO-3: every layer gathered before its forward and its backward in each micro-batch, in two blocks
  // (attention, then the rest), its gradients reduce-scattered after its backward (the embeddings are
  // not sharded per layer here: layers only).
  const double layers = 8 * model().layer_params(0) * 2;
  CHECK(bytes_of(3).bytes["dp:all-gather"] == zs::test::approx(2 * 2 * layers));
  CHECK(bytes_of(3).count["dp:all-gather"] == 2 * 8 * 2 * 2);
  CHECK(bytes_of(3).bytes["dp:reduce-scatter"] == zs::test::approx(2 * layers));
  // Left out, a bf16 model's gradients are reduced in fp32 (Megatron-LM) and the weights gathered in bf16.
  auto p = plan(4, 1, 1, 1, 8);
  p.zero_stage = 1;
  auto fp32 = totals(workload::generate_megatron_trace(model(), p));
  CHECK(fp32.bytes["dp:reduce-scatter"] == zs::test::approx(2 * psi));
  CHECK(fp32.bytes["dp:all-gather"] == zs::test::approx(psi));
}

TEST_CASE("expert parallelism: dispatch and combine all-to-alls of tokens x top_k x h per MoE layer") {
  auto p = plan(4, 2, 1, 1, 8);
  p.sequence_parallel = true;
  p.expert_parallel = 4;
  auto trace = workload::generate_megatron_trace(moe_model(), p);
  workload::validate(trace, "moe");
  auto t = totals(trace);
  // Per rank and micro-batch: b s / tp = 128 tokens, 2 experts each, h = 512, bf16; 4 layers;
  // forward dispatch + combine, backward the same; 2 micro-batches.
  CHECK(t.count["ep:all-to-all"] == 4 * 4 * 2);
  CHECK(t.bytes["ep:all-to-all"] == zs::test::approx(4 * 4 * 2 * 128.0 * 2 * 512 * 2));
  REQUIRE(trace.communicator_axes("dp").has_value());
  CHECK(trace.mesh.group_size(*trace.communicator_axes("dp")) == 4);
  CHECK(trace.mesh.group_size(*trace.communicator_axes("expert-dp")) == 2);  // the tp ranks
  // Each rank holds 8 / 4 = 2 whole experts per layer.
  auto params = workload::stage_parameters(moe_model(), p, 0);
  CHECK(params.experts == zs::test::approx(4 * 2 * moe_model().expert_params()));
}

TEST_CASE(
    "expert tensor parallelism: the tp ranks gather their dispatched tokens, split each expert, and "
    "reduce-scatter its outputs") {
  auto p = plan(4, 2, 1, 1, 8);
  p.sequence_parallel = true;
  p.expert_parallel = 4;
  const auto whole = workload::generate_megatron_trace(moe_model(), p);
  p.expert_tensor_parallel = 2;
  const auto split = workload::generate_megatron_trace(moe_model(), p);
  workload::validate(split, "moe-etp");
  auto a = totals(whole), b = totals(split);
  // The same FLOPs and all-to-alls; per MoE layer, pass and micro-batch one all-gather of the two tp
  // ranks' dispatched tokens (2 x 128 tokens x top-2 x h 512 x 2 B) and one reduce-scatter of as many
  // outputs; 4 layers, forward and backward, 2 micro-batches.
  CHECK(b.flops == zs::test::approx(a.flops).epsilon(1e-12));
  CHECK(b.bytes["ep:all-to-all"] == zs::test::approx(a.bytes["ep:all-to-all"]));
  CHECK(a.count["etp:all-gather"] == 0);
  CHECK(b.count["etp:all-gather"] == 4 * 2 * 2);
  CHECK(b.count["etp:reduce-scatter"] == 4 * 2 * 2);
  CHECK(b.bytes["etp:all-gather"] == zs::test::approx(4 * 2 * 2 * 2 * 128.0 * 2 * 512 * 2));
  CHECK(b.bytes["etp:reduce-scatter"] == zs::test::approx(b.bytes["etp:all-gather"]));
  CHECK(b.bytes["tp:all-gather"] == zs::test::approx(a.bytes["tp:all-gather"]));  // the blocks' own
  REQUIRE(split.communicator_axes("etp").has_value());
  CHECK(split.mesh.group_size(*split.communicator_axes("etp")) == 2);
  // Half of each of its 2 experts per rank, so no expert replicas to synchronize (dp 4 = ep 4).
  CHECK(!split.communicator_axes("expert-dp").has_value());
  CHECK(p.expert_replicas() == 1);
  CHECK(workload::stage_parameters(moe_model(), p, 0).experts ==
        zs::test::approx(4 * 2 * moe_model().expert_params() / 2));
  // The expert GEMMs read half the weights.
  auto expert_weight_bytes = [](const workload::Trace& t) {
    double bytes = 0;
    for (const auto& op : t.roles[0].ops)
      if (op.name.find("moe/experts/") != std::string::npos)
        bytes += std::get<ComputeOp>(op.body).bytes.value();
    return bytes;
  };
  CHECK(expert_weight_bytes(split) == zs::test::approx(expert_weight_bytes(whole) / 2));
}

TEST_CASE("a routing histogram from a file: read relative to the plan's file, its errors name that file") {
  test::TempDir dir;
  core::DiskFileSource files;
  auto m = moe_model();  // 8 routed experts
  auto plan_for = [&](nlohmann::json routing) {
    nlohmann::json j = {{"data_parallel", 2},
                        {"expert_parallel", 2},
                        {"micro_batch", 1},
                        {"global_batch", 2},
                        {"routing", routing}};
    core::ParamReader o(workload::ParallelPlan::params(),
                        core::JsonObject(j, dir.file("scenario.json"), "/workload"));
    return workload::ParallelPlan::from_params(o, m, &files);
  };
  dir.write("loads/hot.json",
            R"({"kind": "expert-histogram", "source": "test", "weights": [8, 1, 1, 1, 1, 1, 1, 2]})");
  auto p = plan_for({{"distribution", "histogram"}, {"histogram_file", "loads/hot.json"}});
  CHECK(p.routing.histogram == std::vector<double>{8, 1, 1, 1, 1, 1, 1, 2});
  auto error = [&](nlohmann::json routing) {
    try {
      plan_for(routing);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  dir.write("loads/short.json", R"({"kind": "expert-histogram", "weights": [1, 2]})");
  CHECK(error({{"distribution", "histogram"}, {"histogram_file", "loads/short.json"}}) ==
        dir.file("loads/short.json") +
            ": /weights: expected an array of 8 non-negative weights, one per routed expert");
  dir.write("loads/negative.json", R"({"kind": "expert-histogram", "weights": [1, 2, 3, 4, 5, 6, 7, -8]})");
  CHECK(error({{"distribution", "histogram"}, {"histogram_file", "loads/negative.json"}}) ==
        dir.file("loads/negative.json") + ": /weights/7: expected a weight >= 0");
  CHECK(error({{"distribution", "histogram"}, {"histogram_file", "loads/none.json"}})
            .find("cannot read file") != std::string::npos);
  CHECK(error({{"distribution", "histogram"}, {"histogram_file", "loads/hot.json"}, {"histogram", {1}}}) ==
        dir.file("scenario.json") +
            ": /workload/routing/histogram_file: give the histogram inline or in a file, not both");
}

TEST_CASE(
    "element-wise traffic per layer: 5 T h + T x ffn width, and 6.5 a T s unfused scores, backward twice") {
  // model(): 8 layers, h 512, 8 heads, FFN 2048 (GELU: width 2f), s 256; one stage, tp 2, no recomputation.
  auto p = plan(1, 2, 1, 1, 1);
  const double T = 256, h = 512, f = 2048, a = 8, s = 256, tp = 2, e = 2;  // bf16
  auto elementwise_bytes = [](const workload::Trace& trace, const std::string& phase, bool loss = false) {
    double bytes = 0;
    for (const auto& op : trace.roles.front().ops)
      if (const auto* c = std::get_if<ComputeOp>(&op.body))
        if (c->kind == zs::core::WorkKind::kVector && op.phase == phase &&
            (op.name.find("/loss/") != std::string::npos) == loss)
          bytes += c->bytes.value();
    return bytes;
  };
  // Flash attention: norms and residual adds (5 T h per block, replicated over tp) and GELU (2 T f / tp).
  auto flash = workload::generate_megatron_trace(model(), p);
  const double per_layer = (2 * 5 * T * h + 2 * T * f / tp) * e;
  CHECK(elementwise_bytes(flash, "forward") == zs::test::approx(8 * per_layer));
  CHECK(elementwise_bytes(flash, "backward") == zs::test::approx(2 * 8 * per_layer));
  // The loss over T x V / tp logits: 22 B each forward, 14 backward.
  CHECK(elementwise_bytes(flash, "forward", true) == zs::test::approx(22 * T * 1000 / tp));
  CHECK(elementwise_bytes(flash, "backward", true) == zs::test::approx(14 * T * 1000 / tp));
  // Scores through HBM: 6.5 per score, a/tp heads x T queries x s keys, on top.
  p.flash_attention = false;
  auto unfused = workload::generate_megatron_trace(model(), p);
  const double scores = 6.5 * a / tp * T * s * e;
  CHECK(elementwise_bytes(unfused, "forward") == zs::test::approx(8 * (per_layer + scores)));
  CHECK(elementwise_bytes(unfused, "backward") == zs::test::approx(2 * 8 * (per_layer + scores)));
  // Sequence parallelism shards the replicated part; selective recomputation redoes the score kernels.
  p.sequence_parallel = true;
  p.recompute = workload::Recompute::kSelective;
  auto sp = workload::generate_megatron_trace(model(), p);
  const double sharded = (2 * 5 * T * h / tp + 2 * T * f / tp) * e;
  CHECK(elementwise_bytes(sp, "forward") == zs::test::approx(8 * (sharded + scores)));
  CHECK(elementwise_bytes(sp, "backward") == zs::test::approx(8 * (2 * sharded + 3 * scores)));
}

TEST_CASE(
    "tensor parallelism beyond the key/value heads: each rank keeps one head, a copy, and computes it") {
  // 8 query heads in 2 key/value groups of width 64 over tp 8: 4 ranks share each key/value head.
  auto m = model();
  m.kv_heads = 2;
  CHECK(m.kv_replicas(8) == 4);
  CHECK(m.kv_replicas(2) == 1);
  const double h = 512, kv = 2 * 64;                           // key (and value) width
  CHECK(m.kv_params() == zs::test::approx(2 * (h + 1) * kv));  // with biases
  // Per rank: the even split of everything plus 3 more copies' worth of keys and values, over tp.
  CHECK(m.attention_params_per_rank(8) * 8 == zs::test::approx(m.attention_params() + 3 * m.kv_params()));
  auto p = plan(1, 8, 2, 1, 4);
  p.sequence_parallel = true;
  const auto trace = workload::generate_megatron_trace(m, p);
  workload::validate(trace, "gen");
  // Executed FLOPs exceed the model's by the copies' key/value projections: 3 x 2 tokens x (2 h kv)
  // forward and twice that backward, per layer.
  const double tokens = 4.0 * 256;  // global batch x sequence
  CHECK(totals(trace).flops ==
        zs::test::approx(trace.model_flops.value() + 3 * 3 * 2 * tokens * (2 * h * kv) * 8).epsilon(1e-9));
  // Each rank stores the keys and values of its one head: as much as multi-head attention's rank at tp 8.
  auto multi_head = m;
  multi_head.kv_heads = 8;
  CHECK(workload::layer_activation_bytes(m, p, 0, workload::Recompute::kNone) ==
        zs::test::approx(workload::layer_activation_bytes(multi_head, p, 0, workload::Recompute::kNone)));
}

TEST_CASE("tensor parallelism that neither divides nor is a multiple of the key/value heads is refused") {
  auto m = test::gpt("m", 8, 768, 12, 3072, 1000, 256);
  m.kv_heads = 4;
  nlohmann::json j = {{"data_parallel", 1},
                      {"tensor_parallel", 6},
                      {"pipeline_parallel", 1},
                      {"micro_batch", 1},
                      {"global_batch", 4}};
  try {
    core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
    workload::ParallelPlan::from_params(o, m);
    FAIL("accepted");
  } catch (const core::InputError& e) {
    CHECK(std::string(e.what()) ==
          "s.json: /workload/tensor_parallel: tensor_parallel 6 is neither a divisor nor a multiple of the "
          "key/value heads (4), so their copies cannot be spread evenly");
  }
  j["tensor_parallel"] = 12;  // three copies of each of the 4 heads
  core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
  CHECK(workload::ParallelPlan::from_params(o, m).tensor_parallel == 12);
}

TEST_CASE("uneven pipeline stages: layers per stage as listed, refused when they do not add up") {
  auto read = [](nlohmann::json j, const workload::TransformerSpec& m) {
    core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
    return workload::ParallelPlan::from_params(o, m);
  };
  auto error_of = [&](nlohmann::json j, const workload::TransformerSpec& m) {
    try {
      read(j, m);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const auto m = test::gpt("m", 7, 512, 8, 2048, 1000, 256);  // 7 layers on 3 stages: no even split
  nlohmann::json j = {{"data_parallel", 1},
                      {"tensor_parallel", 1},
                      {"pipeline_parallel", 3},
                      {"micro_batch", 1},
                      {"global_batch", 6}};
  CHECK(error_of(j, m) ==
        "s.json: /workload/pipeline_parallel: pipeline_parallel 3 does not divide the layers (7); "
        "layers_per_stage can split them unevenly");
  j["layers_per_stage"] = {2, 3, 3};
  CHECK(error_of(j, m) ==
        "s.json: /workload/layers_per_stage: the entries add up to 8 layers, but the model has 7");
  j["layers_per_stage"] = {2, 5};
  CHECK(error_of(j, m) ==
        "s.json: /workload/layers_per_stage: expected 3 entries (pipeline_parallel x virtual_stages), got 2");
  j["layers_per_stage"] = {0, 4, 3};
  CHECK(error_of(j, m) ==
        "s.json: /workload/layers_per_stage: every entry must be a whole number of layers in [1, 7], got 0");
  j["layers_per_stage"] = {2, 3, 2};
  const auto p = read(j, m);
  CHECK(workload::chunk_layers(m, p, 0, 0) == std::vector<uint32_t>{0, 1});
  CHECK(workload::chunk_layers(m, p, 1, 0) == std::vector<uint32_t>{2, 3, 4});
  CHECK(workload::chunk_layers(m, p, 2, 0) == std::vector<uint32_t>{5, 6});
  const auto trace = workload::generate_megatron_trace(m, p);
  workload::validate(trace, "gen");
  CHECK(totals(trace).flops == zs::test::approx(trace.model_flops.value()).epsilon(1e-12));
  // Parameters per stage follow the split; all stages together hold the model (and the untied copy).
  double sum = 0;
  for (uint32_t s = 0; s < 3; ++s) sum += workload::stage_parameters(m, p, s).dense;
  CHECK(sum == zs::test::approx(m.total_params() + 1000.0 * 512).epsilon(1e-12));
  CHECK(workload::stage_parameters(m, p, 1).dense ==
        zs::test::approx(m.layer_params(2) + m.layer_params(3) + m.layer_params(4)));
  // Interleaved: one entry per virtual stage, every stage's first chunk first.
  j["schedule"] = "interleaved-1f1b";
  j["virtual_stages"] = 2;
  j["layers_per_stage"] = {1, 1, 1, 1, 2, 1};
  const auto v = read(j, m);
  CHECK(workload::chunk_layers(m, v, 1, 1) == std::vector<uint32_t>{4, 5});
  CHECK(workload::chunk_layers(m, v, 2, 1) == std::vector<uint32_t>{6});
}

namespace {
/// The op named `name` of stage `stage`, or nullptr.
const workload::Op* find_op(const workload::Trace& trace, size_t stage, const std::string& name) {
  for (const auto& op : trace.roles.at(stage).ops)
    if (op.name == name) return &op;
  return nullptr;
}
double op_bytes(const workload::Trace& trace, size_t stage, const std::string& name) {
  const auto* op = find_op(trace, stage, name);
  REQUIRE(op != nullptr);
  if (const auto* c = std::get_if<ComputeOp>(&op->body)) return c->bytes.value();
  if (const auto* c = std::get_if<CollectiveOp>(&op->body)) return c->bytes.value();
  return std::get<workload::P2POp>(op->body).bytes.value();
}
}  // namespace

TEST_CASE(
    "before the step: tied embedding gradients summed over the pipeline's ends, then converted, "
    "unscaled, normed and clipped") {
  const auto m = model();  // bf16: fp32 gradients (Megatron-LM)
  auto trace = workload::generate_megatron_trace(m, plan(2, 4, 4, 2, 16));
  // The embedding group: the first and last stages exchange V h / tp fp32 gradients and add them.
  const double embedding = 1000.0 * 512 / 4 * 4;
  for (size_t stage : {0, 3}) {
    CAPTURE(stage);
    CHECK(op_bytes(trace, stage, "optimizer/embedding-gradients/send") == embedding);
    CHECK(op_bytes(trace, stage, "optimizer/embedding-gradients/recv") == embedding);
    CHECK(op_bytes(trace, stage, "optimizer/embedding-gradients/add") == 3 * embedding);
  }
  CHECK(std::get<workload::P2POp>(find_op(trace, 0, "optimizer/embedding-gradients/send")->body).offset ==
        -1);
  CHECK(find_op(trace, 1, "optimizer/embedding-gradients/send") == nullptr);
  // The norm reads every fp32 gradient once and clipping reads and writes it: over the stages, x tp,
  // every parameter plus the tied embedding's second copy. fp32 gradients need no conversion.
  double norm = 0;
  for (size_t stage = 0; stage < 4; ++stage) {
    norm += op_bytes(trace, stage, "optimizer/gradient-norm") * 4;
    CHECK(op_bytes(trace, stage, "optimizer/clip-gradients") ==
          2 * op_bytes(trace, stage, "optimizer/gradient-norm"));
    CHECK(op_bytes(trace, stage, "optimizer/gradient-norm-all-reduce") == 4);
    CHECK(find_op(trace, stage, "optimizer/gradients-to-fp32") == nullptr);
    CHECK(find_op(trace, stage, "optimizer/unscale-gradients") == nullptr);
  }
  CHECK(norm == zs::test::approx(4 * (m.total_params() + 1000.0 * 512)).epsilon(1e-12));
  // Without a distributed optimizer the norm is summed over the model-parallel ranks; with one, over all.
  auto axes_of = [](const workload::Trace& t) {
    for (const auto& c : t.communicators)
      if (c.name == "gradient-norm") return c.axes;
    return std::vector<std::string>{};
  };
  CHECK(axes_of(trace) == std::vector<std::string>{"pp", "tp"});
  auto zero1 = plan(2, 4, 4, 2, 16);
  zero1.zero_stage = 1;
  CHECK(axes_of(workload::generate_megatron_trace(m, zero1)) == std::vector<std::string>{"pp", "dp", "tp"});
  // 16-bit gradients are copied to fp32 first (read 2, write 4 B per parameter); an fp16 model is also
  // unscaled (read and write 4 B) with an all-reduced inf/NaN check.
  auto fp16 = m;
  fp16.dtype = core::Dtype::kFp16;
  auto t16 = workload::generate_megatron_trace(fp16, plan(2, 4, 4, 2, 16));
  const double shard = op_bytes(t16, 1, "optimizer/gradient-norm") / 4;
  CHECK(op_bytes(t16, 1, "optimizer/gradients-to-fp32") == zs::test::approx(6 * shard));
  CHECK(op_bytes(t16, 1, "optimizer/unscale-gradients") == zs::test::approx(8 * shard));
  CHECK(op_bytes(t16, 1, "optimizer/found-inf-all-reduce") == 4);
  CHECK(op_bytes(t16, 0, "optimizer/embedding-gradients/send") == embedding / 2);
  // Switched off, clipping leaves the norm out; one stage of one tensor-parallel rank reduces nothing.
  auto unclipped = plan(2, 4, 4, 2, 16);
  unclipped.gradient_clipping = false;
  auto t = workload::generate_megatron_trace(m, unclipped);
  CHECK(find_op(t, 0, "optimizer/gradient-norm") == nullptr);
  CHECK(find_op(t, 0, "optimizer/clip-gradients") == nullptr);
  auto alone = workload::generate_megatron_trace(m, plan(2, 1, 1, 1, 4));
  CHECK(find_op(alone, 0, "optimizer/gradient-norm") != nullptr);
  CHECK(find_op(alone, 0, "optimizer/gradient-norm-all-reduce") == nullptr);
  CHECK(find_op(alone, 0, "optimizer/embedding-gradients/send") == nullptr);
}

TEST_CASE("combined 1F1B: each backward runs beside the next forward, their expert exchanges on a stream") {
  auto p = plan(4, 2, 1, 1, 12);  // 3 micro-batches, no pipeline
  p.sequence_parallel = true;
  p.expert_parallel = 4;
  const auto sequential = workload::generate_megatron_trace(moe_model(), p);
  p.overlap_expert_communication = true;
  // Without a pipeline: F0, then F1 beside B0 and F2 beside B1, then B2.
  const auto steps = p.stage_steps(0);
  REQUIRE(steps.size() == 6);
  const std::vector<std::pair<bool, uint32_t>> expected = {{true, 0}, {true, 1},  {false, 0},
                                                           {true, 2}, {false, 1}, {false, 2}};
  for (size_t i = 0; i < steps.size(); ++i) {
    CAPTURE(i);
    CHECK(steps[i].forward == expected[i].first);
    CHECK(steps[i].micro_batch == expected[i].second);
    CHECK(steps[i].combined_with_next == (i == 1 || i == 3));
  }
  const auto trace = workload::generate_megatron_trace(moe_model(), p);
  workload::validate(trace, "moe");  // every dependency points at an earlier op
  REQUIRE(trace.streams.back() == "expert-exchange");
  const auto exchange_stream = static_cast<uint32_t>(trace.streams.size() - 1);
  // The same ops (the same totals), in another order.
  const auto& ops = trace.roles[0].ops;
  REQUIRE(ops.size() == sequential.roles[0].ops.size());
  CHECK(totals(trace).flops == zs::test::approx(totals(sequential).flops));
  CHECK(totals(trace).bytes == totals(sequential).bytes);
  // Every expert exchange of a combined step is on its stream, the rest where it was.
  auto index_of = [&](const std::string& name, const std::string& phase = "forward") {
    const auto it = std::find_if(ops.begin(), ops.end(),
                                 [&](const auto& op) { return op.name == name && op.phase == phase; });
    REQUIRE(it != ops.end());
    return static_cast<uint32_t>(it - ops.begin());
  };
  for (const auto& op : ops) {
    CAPTURE(op.name);
    const bool exchange = op.name.find("/moe/ep-") != std::string::npos;
    const bool paired = op.name.rfind("mb0/", 0) != 0 || op.phase != "forward";  // F0 runs alone
    const bool last_backward = op.name.rfind("mb2/", 0) == 0 && op.phase != "forward";
    CHECK((op.stream == exchange_stream) == (exchange && paired && !last_backward));
  }
  // F1's first dispatch waits for its router; F1's experts wait for the dispatch; between them, on the
  // compute stream, B0's ops up to its first exchange run.
  const uint32_t dispatch = index_of("mb1/layer0/moe/ep-dispatch");
  const uint32_t experts = index_of("mb1/layer0/moe/experts/forward");
  CHECK(ops[dispatch].deps == std::vector<uint32_t>{index_of("mb1/layer0/moe/router-shared/forward")});
  CHECK(std::find(ops[experts].deps.begin(), ops[experts].deps.end(), dispatch) != ops[experts].deps.end());
  const auto* scaled = std::get_if<ComputeOp>(&ops[experts].body);
  REQUIRE(scaled != nullptr);
  CHECK(scaled->scaled_by == dispatch);  // expert work still scales with what that dispatch delivered
  CHECK(dispatch < index_of("mb0/layer3/moe/ep-dispatch", "backward"));
  CHECK(index_of("mb0/layer3/moe/ep-dispatch", "backward") < experts);
}

namespace {
/// The InputError a plan (a scenario's /workload in s.json) of `m` gives, or "(no error)".
std::string plan_error(const nlohmann::json& j, const workload::TransformerSpec& m) {
  try {
    core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
    workload::ParallelPlan::from_params(o, m);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("combined 1F1B is refused where Megatron-LM cannot run it") {
  auto error_of = [](const nlohmann::json& j) { return plan_error(j, moe_model()); };
  nlohmann::json j = {{"data_parallel", 4},   {"pipeline_parallel", 2},
                      {"micro_batch", 1},     {"global_batch", 16},
                      {"expert_parallel", 4}, {"schedule", "interleaved-1f1b"},
                      {"virtual_stages", 2},  {"overlap_expert_communication", true}};
  CHECK(error_of(j) == "(no error)");
  j["schedule"] = "1f1b";
  j.erase("virtual_stages");
  CHECK(error_of(j).find("s.json: /workload/overlap_expert_communication: combined 1F1B with "
                         "pipeline_parallel > 1 needs schedule \"interleaved-1f1b\"") == 0);
  j["schedule"] = "interleaved-1f1b";
  j["virtual_stages"] = 2;
  j["zero_stage"] = 3;
  CHECK(error_of(j).find("not with zero_stage 3") != std::string::npos);
  j.erase("zero_stage");
  j["expert_parallel"] = 1;
  CHECK(error_of(j).find("needs expert_parallel > 1") != std::string::npos);
}

TEST_CASE("overlapped pipeline exchanges are refused outside Megatron-Core's interleaved schedule") {
  auto error_of = [](const nlohmann::json& j) { return plan_error(j, moe_model()); };
  nlohmann::json j = {{"data_parallel", 4},
                      {"pipeline_parallel", 2},
                      {"micro_batch", 1},
                      {"global_batch", 16},
                      {"schedule", "interleaved-1f1b"},
                      {"virtual_stages", 2},
                      {"overlap_pipeline_exchanges", true}};
  CHECK(error_of(j) == "(no error)");
  j["schedule"] = "1f1b";
  j.erase("virtual_stages");
  CHECK(error_of(j) ==
        "s.json: /workload/overlap_pipeline_exchanges: overlapped pipeline exchanges need pipeline_parallel "
        "> 1 and schedule \"interleaved-1f1b\" (Megatron-Core overlaps the exchanges of its interleaved "
        "schedule only)");
  j["schedule"] = "interleaved-1f1b";
  j["virtual_stages"] = 2;
  j["batched_exchanges"] = true;
  CHECK(error_of(j) ==
        "s.json: /workload/overlap_pipeline_exchanges: overlapped and batched exchanges exclude each other "
        "(Megatron-Core's overlap_p2p_comm and batch_p2p_comm)");
  j.erase("batched_exchanges");
  j["expert_parallel"] = 4;
  j["overlap_expert_communication"] = true;
  CHECK(error_of(j).find("s.json: /workload/overlap_pipeline_exchanges: combined 1F1B") == 0);
}

TEST_CASE(
    "overlapped exchanges: each receive posted on its own stream when the previous step in its direction "
    "ends, and waited for with the previous send by the step's first op") {
  auto p = interleaved_plan();
  p.overlap_pipeline_exchanges = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  workload::validate(trace, "overlapped");
  CHECK(trace.streams.size() == 6);
  CHECK(trace.streams[4] == "receive-previous");
  CHECK(trace.streams[5] == "receive-next");
  const auto& ops = trace.roles[1].ops;  // stage 1 of 2: it receives activations and gradients
  auto index_of = [](const auto& ops, const std::string& name) {
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.name == name; });
    REQUIRE(it != ops.end());
    return static_cast<uint32_t>(it - ops.begin());
  };
  // The first op on the compute stream, and the last compute op, of one pass of a step.
  auto first_op = [](const auto& ops, const std::string& step, const std::string& phase) {
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].name.rfind(step, 0) == 0 && ops[i].phase == phase && ops[i].stream == 0) return i;
    FAIL("no " << phase << " op of " << step);
    return 0u;
  };
  auto last_compute = [](const auto& ops, const std::string& step, const std::string& phase) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].name.rfind(step, 0) == 0 && ops[i].phase == phase &&
          std::holds_alternative<ComputeOp>(ops[i].body))
        last = i;
    return last;
  };
  auto depends = [&](uint32_t op, uint32_t on) {
    return std::find(ops[op].deps.begin(), ops[op].deps.end(), on) != ops[op].deps.end();
  };
  // Stage 1 (the last) of 2, 2 chunks, 4 micro-batches, in Megatron-LM's interleaved order: warm-up
  // F(0,c0) F(1,c0), then the steady pairs F(0,c1) B(0,c1), F(1,c1) B(1,c1), F(2,c0) B(0,c0), F(3,c0)
  // B(1,c0), then the cool-down backwards. F(2,c0)'s receive is posted, on the stream of receives from
  // the previous stage, when the previous forward F(1,c1) ends: a step (B(1,c1)) ahead.
  const uint32_t recv = index_of(ops, "mb2/chunk0/recv-activations");
  CHECK(ops[recv].stream == 4);
  REQUIRE(ops[recv].deps.size() == 1);
  CHECK(ops[recv].deps[0] == last_compute(ops, "mb1/chunk1/", "forward"));
  CHECK(recv < first_op(ops, "mb1/chunk1/", "backward"));
  CHECK(depends(first_op(ops, "mb2/chunk0/", "forward"), recv));
  // Gradients come in on their own stream, posted when the previous backward B(1,c1) ends; B(0,c0)'s
  // first op waits for them and for B(1,c1)'s send.
  const uint32_t grads = index_of(ops, "mb0/chunk0/recv-gradients");
  CHECK(ops[grads].stream == 5);
  REQUIRE(ops[grads].deps.size() == 1);
  CHECK(ops[grads].deps[0] == last_compute(ops, "mb1/chunk1/", "backward"));
  CHECK(grads < first_op(ops, "mb2/chunk0/", "forward"));
  const uint32_t b00 = first_op(ops, "mb0/chunk0/", "backward");
  CHECK(depends(b00, grads));
  CHECK(depends(b00, index_of(ops, "mb1/chunk1/send-gradients")));
  // Stage 0 warms up with F(0,c0) F(1,c0) F(0,c1) F(1,c1); its first backward's receive, B(0,c1)'s, is
  // posted with the last warm-up forward's exchange, a step before the first steady forward F(2,c0).
  const auto& ops0 = trace.roles[0].ops;
  const uint32_t first_grads = index_of(ops0, "mb0/chunk1/recv-gradients");
  REQUIRE(ops0[first_grads].deps.size() == 1);
  CHECK(ops0[first_grads].deps[0] == last_compute(ops0, "mb1/chunk1/", "forward"));
  CHECK(first_grads < first_op(ops0, "mb2/chunk0/", "forward"));
  // The same ops as with the exchanges posted just before each step, and the same bytes.
  p.overlap_pipeline_exchanges = false;
  const auto plain = workload::generate_megatron_trace(model(), p);
  CHECK(plain.roles[1].ops.size() == ops.size());
  CHECK(totals(plain).bytes == totals(trace).bytes);
}

TEST_CASE("tensor-parallel overlap is refused without tensor parallelism or sequence parallelism") {
  auto error_of = [](const nlohmann::json& j) { return plan_error(j, model()); };
  nlohmann::json j = {{"data_parallel", 2},        {"tensor_parallel", 2},
                      {"micro_batch", 1},          {"global_batch", 8},
                      {"sequence_parallel", true}, {"overlap_tensor_communication", true}};
  CHECK(error_of(j) == "(no error)");
  j["sequence_parallel"] = false;
  CHECK(error_of(j).find("s.json: /workload/overlap_tensor_communication: overlapping tensor-parallel "
                         "communication needs tensor_parallel > 1 and sequence_parallel: true") == 0);
  j["sequence_parallel"] = true;
  j["tensor_parallel"] = 1;
  CHECK(error_of(j).find("needs tensor_parallel > 1") != std::string::npos);
}

TEST_CASE(
    "batched exchanges: a step's sends and the next step's receives together, waited for, and none between "
    "an "
    "interleaved forward and its backward") {
  auto p = interleaved_plan();
  p.batched_exchanges = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  workload::validate(trace, "batched");
  const auto& ops = trace.roles[0].ops;  // stage 0
  auto index_of = [&](const std::string& name) {
    const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.name == name; });
    REQUIRE(it != ops.end());
    return static_cast<uint32_t>(it - ops.begin());
  };
  auto last_with_prefix = [&](const std::string& prefix) {
    uint32_t last = 0;
    for (uint32_t i = 0; i < ops.size(); ++i)
      if (ops[i].name.rfind(prefix, 0) == 0 && std::holds_alternative<ComputeOp>(ops[i].body)) last = i;
    return last;
  };
  // Stage 0 of 2, 2 chunks, 4 micro-batches: warm-up F(0,c0) F(1,c0) F(0,c1) F(1,c1), then the steady
  // pairs F(2,c0) B(0,c1), F(3,c0) B(1,c1), ... (Megatron-LM's interleaved order).
  const uint32_t send = index_of("mb2/chunk0/send-activations");
  CHECK(send > last_with_prefix("mb0/chunk1/"));  // sent after the paired backward, with its own sends
  // In the same exchange, the receive of the backward paired with the next forward (B(1,c1), from stage 1's
  // last chunk), posted before that forward F(3,c0) runs.
  const uint32_t next_recv = index_of("mb1/chunk1/recv-gradients");
  CHECK(send < next_recv);
  CHECK(index_of("mb0/chunk1/send-gradients") < next_recv);
  // The next compute waits for the exchange's sends.
  const uint32_t after = next_recv + 1;
  REQUIRE(std::holds_alternative<ComputeOp>(ops[after].body));
  CHECK(ops[after].name.rfind("mb3/chunk0/", 0) == 0);
  CHECK(std::find(ops[after].deps.begin(), ops[after].deps.end(), send) != ops[after].deps.end());
  // The same ops as with overlapped exchanges, in another order.
  p.batched_exchanges = false;
  const auto overlapped = workload::generate_megatron_trace(model(), p);
  CHECK(overlapped.roles[0].ops.size() == ops.size());
  CHECK(totals(overlapped).bytes == totals(trace).bytes);
  CHECK(overlapped.roles[0].ops[index_of("mb2/chunk0/send-activations")].name !=
        "mb2/chunk0/send-activations");
}

TEST_CASE("a distributed checkpoint writes every parameter once, 2 + 12 bytes, whatever the plan") {
  // Megatron-Core's torch_dist checkpoint (and PyTorch DCP) writes each tensor once: 16-bit weights, fp32
  // master weights and Adam's two fp32 moments, 14 B per parameter of the model, for any ZeRO stage and
  // parallelism; the replicated tensors' writing is shared among their data-parallel replicas.
  struct Case {
    bool moe, gqa;
    uint32_t dp, tp, pp, cp, ep, zero;
  };
  for (const auto& c : {Case{false, false, 4, 1, 1, 1, 1, 0}, Case{false, false, 2, 2, 2, 1, 1, 1},
                        Case{false, true, 2, 8, 1, 1, 1, 2}, Case{false, false, 2, 1, 4, 2, 1, 3},
                        Case{true, false, 4, 2, 2, 1, 4, 1}, Case{true, false, 8, 1, 1, 1, 2, 0}}) {
    CAPTURE(c.moe);
    CAPTURE(c.gqa);
    CAPTURE(c.zero);
    CAPTURE(c.pp);
    auto m = c.moe ? moe_model() : model();
    if (c.gqa) {
      m.kv_heads = 2;  // tensor parallelism 8 over 2 key/value heads: each head on 4 ranks
      m.tied_embeddings = false;
    }
    auto p = plan(c.dp, c.tp, c.pp, 1, c.dp * 4);
    p.context_parallel = c.cp;
    p.expert_parallel = c.ep;
    p.zero_stage = c.zero;
    const auto size = workload::generate_megatron_trace(m, p).checkpoint_size();
    REQUIRE(size);
    CHECK(size->total.value() == zs::test::approx(14.0 * m.total_params()).epsilon(1e-12));
    if (c.pp == 1 && !c.moe)  // one stage, every parameter dense: each rank writes an equal share
      CHECK(size->per_rank_max.value() ==
            zs::test::approx(14.0 * m.total_params() / (c.dp * c.tp * c.cp)).epsilon(1e-12));
  }
}

TEST_CASE("with gradient reduction overlapped, the optimizer waits for each reduction once") {
  auto p = plan(4, 1, 1, 1, 8);
  p.overlap_gradient_reduction = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  size_t checked = 0;
  for (const auto& op : trace.roles.front().ops) {
    std::vector<uint32_t> deps = op.deps;
    std::sort(deps.begin(), deps.end());
    CHECK(std::adjacent_find(deps.begin(), deps.end()) == deps.end());
    if (op.name == "optimizer/adam") checked = op.deps.size();
  }
  // the last op (the first layer's reduction) and every layer's reduction: 8 layers
  CHECK(checked == 8);
}
