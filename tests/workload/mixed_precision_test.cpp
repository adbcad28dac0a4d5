// fp8 recipes: the products in fp8, the memory each term keeps, casts, dispatch and Adam bytes, amax
// reductions.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.hpp"
#include "support/approx.hpp"
#include "support/test_models.hpp"
#include "workload/adam_step.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/memory_accounting.hpp"
#include "workload/mixed_precision.hpp"

using namespace zs;
using workload::ComputeOp;
using workload::Fp8Recipe;
using workload::ParallelPlan;
using workload::Recompute;

namespace {
workload::TransformerSpec gpt() {
  return test::gpt("m", 8, 1024, 16, 4096, 50000, 2048);
}

/// A SwiGLU MoE model: 4 layers, 8 experts of width 512, top 2, one shared expert.
workload::TransformerSpec moe() {
  auto m = test::gpt("moe", 4, 512, 8, 2048, 1000, 256);
  m.ffn_activation = workload::FfnActivation::kSwiglu;
  m.moe = workload::MoeSpec{8, 2, 1, 512, 0, 0.0};
  return m;
}

ParallelPlan plan(uint32_t dp, uint32_t tp, Fp8Recipe recipe) {
  ParallelPlan p;
  p.data_parallel = dp;
  p.tensor_parallel = tp;
  p.sequence_parallel = tp > 1;
  p.global_batch = dp * 2;
  p.fp8 = recipe;
  p.flash_attention = false;
  return p;
}

const ComputeOp& compute_op(const workload::Trace& trace, const std::string& name) {
  for (const auto& op : trace.roles.at(0).ops)
    if (op.name == name) return std::get<ComputeOp>(op.body);
  FAIL("no op " << name);
  throw std::logic_error("unreachable");
}

/// Matrix FLOPs of stage 0's forward and backward, by dtype.
std::map<core::Dtype, double> matrix_flops(const workload::Trace& trace) {
  std::map<core::Dtype, double> out;
  for (const auto& op : trace.roles.at(0).ops)
    if (const auto* c = std::get_if<ComputeOp>(&op.body))
      if (c->kind == core::WorkKind::kMatrix) out[c->dtype] += c->flops.value();
  return out;
}
}  // namespace

TEST_CASE("fp8 recipes save the linear layers' inputs in fp8: Korthikanti's 34 sbh becomes 27 (TE)") {
  const auto m = gpt();
  const double s = 2048, b = 1, h = 1024, t = 8;
  // Sequence parallel, selective: 34 s b h / t in 16 bits. With Transformer Engine's fp8 the attention
  // input (2 -> 1), the FFN input (2 -> 1), the attention output (2 -> 1) and the FFN's second matrix's
  // input (8 -> 4) halve: 34 - 7 = 27.
  CHECK(workload::layer_activation_bytes(m, plan(1, 8, Fp8Recipe::kNone), 0, Recompute::kSelective) ==
        zs::test::approx(s * b * h / t * 34));
  CHECK(workload::layer_activation_bytes(m, plan(1, 8, Fp8Recipe::kTransformerEngine), 0,
                                         Recompute::kSelective) == zs::test::approx(s * b * h / t * 27));
  // DeepSeek-V3's recipe: fp8 with a 4-byte scale per 128 elements; E5M6 (1.5 B) for the attention output.
  const double fp8 = 1 + 4.0 / 128, e5m6 = 1.5 + 4.0 / 128;
  const double replicated = 4 + 2 * fp8 + 2, split = 6 + e5m6 + 4 * (2 + fp8);
  CHECK(workload::layer_activation_bytes(m, plan(1, 8, Fp8Recipe::kDeepSeekV3), 0, Recompute::kSelective) ==
        zs::test::approx(s * b * h / t * (replicated + split)));
  // Full recomputation keeps the layer's 16-bit input whatever the recipe.
  CHECK(workload::layer_activation_bytes(m, plan(1, 8, Fp8Recipe::kDeepSeekV3), 0, Recompute::kFull) ==
        zs::test::approx(2 * s * b * h / t));
}

TEST_CASE("DeepSeek-V3's MoE SwiGLU keeps only its inputs, in fp8, and recomputes its output") {
  const auto m = moe();
  const double sb = 256, width = (2 + 1) * 512.0;  // top 2 + 1 shared expert, 512 wide each
  auto te = workload::layer_activation_bytes(m, plan(1, 1, Fp8Recipe::kTransformerEngine), 0,
                                             Recompute::kSelective);
  auto ds = workload::layer_activation_bytes(m, plan(1, 1, Fp8Recipe::kDeepSeekV3), 0, Recompute::kSelective);
  const double fp8 = 1 + 4.0 / 128;
  // Transformer Engine: gate and up outputs at 2 B, the product (second matrix's input) at 1 B.
  // DeepSeek-V3: gate and up at fp8, no product. The other terms differ by the scale bytes and E5M6.
  const double te_rest = te - sb * width * (2 + 2 + 1);
  const double ds_rest = ds - sb * width * 2 * fp8;
  const double h = 512;
  // The routed experts' inputs (top 2 copies of each token) are fp8 in both, with DeepSeek-V3's scales.
  CHECK(ds_rest - te_rest ==
        zs::test::approx(sb * h * (2 * (fp8 - 1) + (1.5 + 4.0 / 128 - 1) + 2 * (fp8 - 1))));
}

TEST_CASE("fp8 recipes: weight copies 2 B per layer parameter, Adam state 12 B (TE) or 8 B (bf16 moments)") {
  const auto m = gpt();
  auto p = plan(8, 1, Fp8Recipe::kNone);
  p.zero_stage = 1;
  const auto none = workload::stage_footprint(m, p, 0);
  p.fp8 = Fp8Recipe::kTransformerEngine;
  const auto te = workload::stage_footprint(m, p, 0);
  p.fp8 = Fp8Recipe::kDeepSeekV3;
  const auto ds = workload::stage_footprint(m, p, 0);
  const double psi = m.total_params(), layers = 8 * m.layer_params(0);
  CHECK(workload::layer_weights(m, p, 0) == zs::test::approx(layers));
  CHECK(te.weights.value() == zs::test::approx(2 * psi + 2 * layers));
  CHECK(ds.weights.value() == te.weights.value());
  CHECK(none.optimizer.value() == zs::test::approx(12 * psi / 8));
  CHECK(te.optimizer.value() == none.optimizer.value());
  CHECK(ds.optimizer.value() == zs::test::approx(8 * psi / 8));
  CHECK(te.gradients.value() == none.gradients.value());  // fp32 main gradients in every recipe
  // ZeRO-3: the copies are made of the gathered blocks, beside their 2 B.
  p.zero_stage = 3;
  p.recompute = Recompute::kSelective;
  const auto z3 = workload::stage_footprint(m, p, 0);
  CHECK(z3.weights.value() == zs::test::approx(2 * psi / 8));
  CHECK(z3.buffers.value() == zs::test::approx(4 * m.layer_params(0)));
}

TEST_CASE("the linear layers' products run in fp8, attention's core and the output layer stay bf16") {
  const auto m = gpt();
  auto bf16 = workload::generate_megatron_trace(m, plan(1, 2, Fp8Recipe::kNone));
  auto fp8 = workload::generate_megatron_trace(m, plan(1, 2, Fp8Recipe::kTransformerEngine));
  const auto a = matrix_flops(bf16), b = matrix_flops(fp8);
  // The same FLOPs in all, split by dtype: scores and values (2 b s^2 a (qk + v) / tp per layer) and the
  // output layer (2 b s h V / tp) forward, twice that backward, in bf16; the rest in fp8.
  const double micro_batches = 2, layers = 8, tp = 2;
  const double scores = m.attention_score_flops(1).value() / tp,
               logits = m.logits_forward_flops(1).value() / tp;
  CHECK(a.size() == 1);
  CHECK(b.at(core::Dtype::kBf16) == zs::test::approx(3 * micro_batches * (layers * scores + logits)));
  CHECK(b.at(core::Dtype::kBf16) + b.at(core::Dtype::kFp8) == zs::test::approx(a.at(core::Dtype::kBf16)));
  // Linear products read the fp8 copies of their weights: the FFN's 2 h f / tp weights at 1 B.
  const auto& ffn = compute_op(fp8, "mb0/layer0/ffn/forward");
  CHECK(ffn.dtype == core::Dtype::kFp8);
  CHECK(ffn.bytes.value() == zs::test::approx(compute_op(bf16, "mb0/layer0/ffn/forward").bytes.value() / 2));
  CHECK(compute_op(fp8, "mb0/layer0/attention/core-forward").dtype == core::Dtype::kBf16);
  CHECK(compute_op(fp8, "mb0/layer0/attention/projections-backward").dtype == core::Dtype::kFp8);
  // Casts: the forward writes the rowwise and transposed fp8 copies (2 B each element) of the attention
  // input (s h, gathered) and the attention output (s h / tp).
  const double s = 2048, h = 1024;
  CHECK(compute_op(fp8, "mb0/layer0/attention/elementwise-forward").bytes.value() -
            compute_op(bf16, "mb0/layer0/attention/elementwise-forward").bytes.value() ==
        zs::test::approx(2 * (s * h + s * h / tp)));
  // Backward: the output gradients of the output projection (s h) and of the query, key and value
  // projections (3 s h / tp).
  CHECK(compute_op(fp8, "mb0/layer0/attention/elementwise-backward").bytes.value() -
            compute_op(bf16, "mb0/layer0/attention/elementwise-backward").bytes.value() ==
        zs::test::approx(2 * (s * h + 3 * s * h / tp)));
}

TEST_CASE("DeepSeek-V3's recipe dispatches tokens in fp8 with scales, combines in bf16, keeps bf16 moments") {
  auto p = plan(4, 1, Fp8Recipe::kDeepSeekV3);
  p.expert_parallel = 4;
  p.global_batch = 4;
  auto trace = workload::generate_megatron_trace(moe(), p);
  workload::validate(trace, "ds");
  double dispatch = 0, combine = 0;
  for (const auto& op : trace.roles.at(0).ops)
    if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
      if (op.name.find("ep-dispatch") != std::string::npos) dispatch += c->bytes.value();
      if (op.name.find("ep-combine") != std::string::npos) combine += c->bytes.value();
    }
  // 256 tokens x top 2 x h 512, forward and backward, 4 layers, 1 micro-batch.
  const double tokens = 256 * 2 * 512 * 2 * 4;
  CHECK(dispatch == zs::test::approx(tokens * (1 + 4.0 / 128)));
  CHECK(combine == zs::test::approx(tokens * 2));
  // Adam reads and writes the fp32 master weight, two bf16 moments, reads the fp32 gradient, writes bf16.
  CHECK(workload::adam_step(1.0, 4.0, 2.0).bytes.value() == 22.0);
  CHECK(workload::adam_step(1.0, 4.0).bytes.value() == 30.0);
  const auto& adam = compute_op(trace, "optimizer/adam");
  const auto params = workload::stage_parameters(moe(), p, 0);
  CHECK(adam.bytes.value() == zs::test::approx(22.0 * (params.dense + params.experts)));  // no ZeRO: all
}

TEST_CASE("fp8 recipes train bf16 models, an unknown recipe lists the known ones") {
  auto error_of = [](nlohmann::json j, const workload::TransformerSpec& m) {
    try {
      core::ParamReader o(ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
      ParallelPlan::from_params(o, m);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  nlohmann::json j = {{"micro_batch", 1}, {"global_batch", 4}, {"fp8", "transformer-engine"}};
  CHECK(error_of(j, gpt()) == "(no error)");
  auto fp16 = gpt();
  fp16.dtype = core::Dtype::kFp16;
  CHECK(error_of(j, fp16) ==
        "s.json: /workload/fp8: the fp8 recipes train bf16 models, but the model's dtype is fp16");
  j["fp8"] = "hybrid";
  CHECK(
      error_of(j, gpt()) ==
      "s.json: /workload/fp8: unknown fp8 recipe \"hybrid\" (known: none, transformer-engine, deepseek-v3)");
}

namespace {
/// The collectives of stage `role` whose name contains `part`, in program order.
std::vector<std::pair<std::string, workload::CollectiveOp>> collectives(const workload::Trace& trace,
                                                                        size_t role,
                                                                        const std::string& part) {
  std::vector<std::pair<std::string, workload::CollectiveOp>> out;
  for (const auto& op : trace.roles.at(role).ops)
    if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body))
      if (op.name.find(part) != std::string::npos) out.emplace_back(op.name, *c);
  return out;
}

size_t index_of(const workload::Trace& trace, size_t role, const std::string& name) {
  const auto& ops = trace.roles.at(role).ops;
  for (size_t i = 0; i < ops.size(); ++i)
    if (ops[i].name == name) return i;
  FAIL("no op " << name);
  return 0;
}
}  // namespace

TEST_CASE(
    "Transformer Engine's amax reduction: one all-reduce per chunk pass over the stage's tp, dp, cp ranks") {
  auto p = plan(2, 2, Fp8Recipe::kTransformerEngine);
  p.pipeline_parallel = 2;
  p.schedule = workload::PipelineSchedule::kInterleaved1F1B;
  p.virtual_stages = 2;
  p.global_batch = 8;  // 4 micro-batches per replica
  p.fp8_amax_reduction = true;
  const auto trace = workload::generate_megatron_trace(gpt(), p);
  workload::validate(trace, "amax");
  bool listed = false;
  for (const auto& c : trace.communicators)
    if (c.name == "amax") listed = c.axes == std::vector<std::string>{"dp", "tp"};
  CHECK(listed);
  // 4 micro-batches x 2 chunks, forward and backward; a chunk is 2 layers of 4 fp8 products (QKV, output
  // projection, FFN in and out): forward 3 amaxes per product, backward 2, 4 B each.
  for (size_t stage = 0; stage < 2; ++stage) {
    const auto forward = collectives(trace, stage, "fp8-amax-all-reduce-forward");
    const auto backward = collectives(trace, stage, "fp8-amax-all-reduce-backward");
    REQUIRE(forward.size() == 8);
    REQUIRE(backward.size() == 8);
    for (const auto& [name, c] : forward) {
      CHECK(c.kind == workload::CollectiveKind::kAllReduce);
      CHECK(c.communicator == "amax");
      CHECK(c.bytes.value() == 2 * 4 * 3 * 4);
    }
    for (const auto& [name, c] : backward) CHECK(c.bytes.value() == 2 * 4 * 2 * 4);
  }
  // Stage 1's second chunk ends the model: its reduction follows the chunk's last layer and precedes the
  // output layer (outside Transformer Engine's autocast); a backward's follows its first layer's backward.
  const size_t reduce = index_of(trace, 1, "mb0/chunk1/fp8-amax-all-reduce-forward");
  CHECK(index_of(trace, 1, "mb0/chunk1/layer7/ffn/forward") < reduce);
  CHECK(reduce < index_of(trace, 1, "mb0/chunk1/logits/forward"));
  CHECK(index_of(trace, 0, "mb0/chunk0/layer0/attention/projections-backward") <
        index_of(trace, 0, "mb0/chunk0/fp8-amax-all-reduce-backward"));
}

TEST_CASE("amax reduction: an MoE layer's products per local expert, and none with one rank per stage") {
  auto p = plan(4, 1, Fp8Recipe::kTransformerEngine);
  p.expert_parallel = 4;
  p.global_batch = 4;
  p.fp8_amax_reduction = true;
  const auto trace = workload::generate_megatron_trace(moe(), p);
  // 4 layers of 2 attention products, 2 per local expert (8 experts / ep 4) and 2 for the shared expert.
  const auto forward = collectives(trace, 0, "fp8-amax-all-reduce-forward");
  REQUIRE(forward.size() == 1);
  CHECK(forward[0].second.bytes.value() == 4 * (2 + 2 * 2 + 2) * 3 * 4);
  auto single = plan(1, 1, Fp8Recipe::kTransformerEngine);
  single.fp8_amax_reduction = true;
  CHECK(collectives(workload::generate_megatron_trace(gpt(), single), 0, "amax").empty());
}

TEST_CASE("amax reduction needs Transformer Engine's fp8 recipe") {
  auto error_of = [](nlohmann::json j) {
    try {
      core::ParamReader o(ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
      ParallelPlan::from_params(o, gpt());
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  nlohmann::json j = {{"micro_batch", 1}, {"global_batch", 4}, {"fp8_amax_reduction", true}};
  CHECK(error_of(j) ==
        "s.json: /workload/fp8_amax_reduction: amax reduction is Transformer Engine's delayed scaling; it "
        "needs fp8 \"transformer-engine\", but fp8 is \"none\"");
  j["fp8"] = "deepseek-v3";
  CHECK(error_of(j).find("but fp8 is \"deepseek-v3\"") != std::string::npos);
  j["fp8"] = "transformer-engine";
  CHECK(error_of(j) == "(no error)");
}
