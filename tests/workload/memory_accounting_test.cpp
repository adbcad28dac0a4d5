// Per-rank memory: ZeRO's 2+2+12 bytes per parameter over its divisors, Korthikanti's activations.
#include <doctest/doctest.h>

#include "support/approx.hpp"
#include "support/test_models.hpp"
#include "workload/memory_accounting.hpp"

using namespace zs;
using workload::ParallelPlan;
using workload::Recompute;

namespace {
workload::TransformerSpec gpt() {
  return test::gpt("m", 8, 1024, 16, 4096, 50000, 2048);
}

ParallelPlan plan(uint32_t dp, uint32_t tp, uint32_t pp, uint32_t zero) {
  ParallelPlan p;
  p.data_parallel = dp;
  p.tensor_parallel = tp;
  p.pipeline_parallel = pp;
  p.global_batch = dp * 8;
  p.zero_stage = zero;
  p.gradient_dtype = core::Dtype::kBf16;  // 16-bit gradients, as the ZeRO paper counts them
  p.flash_attention = false;              // Korthikanti et al.'s accounting keeps the attention scores
  return p;
}
}  // namespace

TEST_CASE("ZeRO stages: 2psi + 2psi + 12psi, sharded over Nd from stage 3, 2, 1 on") {
  const auto m = gpt();
  const double psi = m.total_params();  // one stage, no tensor parallelism: every parameter
  const double nd = 8;
  struct Expect {
    uint32_t stage;
    double weights, gradients, optimizer;
  };
  for (const auto& e : {Expect{0, 2 * psi, 2 * psi, 12 * psi}, Expect{1, 2 * psi, 2 * psi, 12 * psi / nd},
                        Expect{2, 2 * psi, 2 * psi / nd, 12 * psi / nd},
                        Expect{3, 2 * psi / nd, 2 * psi / nd, 12 * psi / nd}}) {
    CAPTURE(e.stage);
    auto f = workload::stage_footprint(m, plan(8, 1, 1, e.stage), 0);
    CHECK(f.weights.value() == zs::test::approx(e.weights).epsilon(1e-12));
    CHECK(f.gradients.value() == zs::test::approx(e.gradients).epsilon(1e-12));
    CHECK(f.optimizer.value() == zs::test::approx(e.optimizer).epsilon(1e-12));
  }
  // The paper's totals: 16psi, 4psi + 12psi/Nd, 2psi + 14psi/Nd, 16psi/Nd.
  auto state = [&](uint32_t z) {
    auto f = workload::stage_footprint(m, plan(8, 1, 1, z), 0);
    return (f.weights + f.gradients + f.optimizer).value();
  };
  CHECK(state(1) == zs::test::approx(4 * psi + 12 * psi / nd));
  CHECK(state(2) == zs::test::approx(2 * psi + 14 * psi / nd));
  CHECK(state(3) == zs::test::approx(16 * psi / nd));
  auto offloaded = plan(8, 1, 1, 1);
  offloaded.offload_optimizer = true;
  CHECK(workload::stage_footprint(m, offloaded, 0).optimizer.value() == 0.0);
}

TEST_CASE("ZeRO-3 keeps two blocks gathered: one layer's attention and the rest, 2 B per parameter") {
  const auto m = gpt();
  auto p = plan(8, 1, 1, 3);
  p.recompute = Recompute::kSelective;  // no recomputed layer's activations among the buffers
  const auto blocks = workload::layer_blocks(m, p, 0);
  CHECK(blocks.attention == zs::test::approx(m.attention_params()));
  CHECK(blocks.attention + blocks.rest == zs::test::approx(m.layer_params(0)));
  CHECK(workload::stage_footprint(m, p, 0).buffers.value() == zs::test::approx(2.0 * m.layer_params(0)));
  p.zero_stage = 2;
  CHECK(workload::stage_footprint(m, p, 0).buffers.value() == 0.0);
}

TEST_CASE("stage parameters over tensor and pipeline parallelism add up to the model (and the untied copy)") {
  const auto m = gpt();
  auto p = plan(1, 4, 4, 0);
  double sum = 0;
  for (uint32_t s = 0; s < 4; ++s) sum += workload::stage_parameters(m, p, s).dense * 4;
  // First and last stages differ, so the last keeps its own copy of the tied embedding (V h).
  CHECK(sum == zs::test::approx(m.total_params() + 50000.0 * 1024).epsilon(1e-12));
}

TEST_CASE("activations per layer follow Korthikanti et al. 2022 (34 sbh + 5 a s^2 b and its splits)") {
  const auto m = gpt();
  const double s = 2048, b = 1, h = 1024, a = 16, t = 8;
  auto p = plan(1, 8, 1, 0);
  CHECK(workload::layer_activation_bytes(m, plan(1, 1, 1, 0), 0, Recompute::kNone) ==
        zs::test::approx(s * b * h * (34 + 5 * a * s / h)));
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kNone) ==
        zs::test::approx(s * b * h * (10 + 24 / t + 5 * a * s / (h * t))));
  p.sequence_parallel = true;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kNone) ==
        zs::test::approx(s * b * h / t * (34 + 5 * a * s / h)));
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kSelective) ==
        zs::test::approx(s * b * h / t * 34));
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kFull) == zs::test::approx(2 * s * b * h / t));
  p.context_parallel = 2;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kSelective) ==
        zs::test::approx(s / 2 * b * h / t * 34));
  // Flash attention keeps no scores, only each query row's softmax statistic (fp32, per head).
  p.flash_attention = true;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kNone) ==
        zs::test::approx(s / 2 * b * h / t * 34 + 4 * a * s / 2 * b / t));
}

TEST_CASE(
    "an MoE layer keeps its routed experts' inputs (top_k copies of each token, gathered over etp) and "
    "the combine's weighted outputs") {
  const double s = 2048, b = 1, h = 1024, t = 4, top_k = 2;
  // A dense layer whose FFN is as wide as the MoE layer's active experts keeps the same FFN activations.
  auto dense = test::gpt("dense", 8, 1024, 16, 2 * 1024, 50000, 2048);
  auto moe = test::gpt("moe", 8, 1024, 16, 4096, 50000, 2048);
  moe.moe = workload::MoeSpec{8, 2, 0, 1024, 0, 1.0};
  auto p = plan(1, 4, 1, 0);
  p.sequence_parallel = true;
  const double extra = workload::layer_activation_bytes(moe, p, 0, Recompute::kSelective) -
                       workload::layer_activation_bytes(dense, p, 0, Recompute::kSelective);
  // Each of the rank's tokens (its sequence-parallel shard) enters top_k experts, 2 B per element, and
  // comes back as top_k outputs the combine weighs and keeps for the probabilities' gradient, 2 B each.
  CHECK(extra == zs::test::approx(2.0 * s * b * top_k * h / t + 2.0 * s * b * top_k * h / t));
  // Expert tensor parallelism: each rank runs its etp group's tokens through a 1/etp slice of each expert,
  // so it keeps all of their inputs and the same share of the intermediate activations; the combine runs
  // after the reduce-scatter, on the rank's own tokens.
  p.expert_tensor_parallel = 4;
  const double gathered = workload::layer_activation_bytes(moe, p, 0, Recompute::kSelective) -
                          workload::layer_activation_bytes(dense, p, 0, Recompute::kSelective);
  CHECK(gathered == zs::test::approx(2.0 * s * b * top_k * h + 2.0 * s * b * top_k * h / t));
  // Full recomputation keeps the layer's input alone.
  CHECK(workload::layer_activation_bytes(moe, p, 0, Recompute::kFull) ==
        workload::layer_activation_bytes(dense, p, 0, Recompute::kFull));
}

TEST_CASE("activations without dropout and with grouped keys and values: each term at its width") {
  auto m = gpt();
  const double s = 2048, b = 1, h = 1024, a = 16, f = 4096, t = 2;
  auto p = plan(1, 2, 1, 0);
  p.sequence_parallel = true;
  // No dropout: the two 1-byte masks go (32 s b h), and the scores keep softmax's output alone (2 a s^2 b).
  m.dropout = false;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kNone) ==
        zs::test::approx(s * b * h / t * (32 + 2 * a * s / h)));
  // Grouped-query attention, 2 key/value heads of 16: keys and values are h/8 wide, 2 s b h/8 each (tp 2:
  // one key/value head per rank, none copied).
  m.kv_heads = 2;
  const double kv = h / 8;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kSelective) ==
        zs::test::approx(s * b / t * (8 * h + 2 * (h + kv + kv + h) + 2 * 2 * f)));
  // Heads wider than hidden / heads (Qwen3: 128-wide heads): queries and attention output widen too.
  m.head_dim = 128;
  CHECK(workload::layer_activation_bytes(m, p, 0, Recompute::kSelective) ==
        zs::test::approx(s * b / t * (8 * h + 2 * (16 * 128 + 2 * 128 + 2 * 128 + 16 * 128) + 2 * 2 * f)));
}

TEST_CASE(
    "activations in flight: 1F1B keeps p micro-batches on stage 0, GPipe m, interleaved 1 + (p-1)/(p v) "
    "times 1F1B") {
  const auto m = gpt();
  auto p = plan(1, 1, 4, 0);
  p.global_batch = 8;
  const double layer = workload::layer_activation_bytes(m, p, 0, Recompute::kNone);
  // The ends (Korthikanti et al. section 4.3): the embedding's dropout mask s b h on the first stage; the
  // final norm's input 2 s b h and the fp32 logits 4 s b V on the last (s 2048, b 1, h 1024, V 50000).
  const double mask = 2048.0 * 1024, logits = 2 * 2048.0 * 1024 + 4 * 2048.0 * 50000;
  CHECK(workload::stage_footprint(m, p, 0).activations.value() == zs::test::approx(4 * (2 * layer + mask)));
  CHECK(workload::stage_footprint(m, p, 3).activations.value() == zs::test::approx(1 * (2 * layer + logits)));
  p.schedule = workload::PipelineSchedule::kGpipe;
  CHECK(workload::stage_footprint(m, p, 0).activations.value() == zs::test::approx(8 * (2 * layer + mask)));
  p.schedule = workload::PipelineSchedule::kInterleaved1F1B;
  p.virtual_stages = 2;
  // Stage 0 holds virtual stages 0 (with the mask) and 4: at the peak, (1 + 3/8) x 4 x 2 = 11 one-layer
  // chunks in flight, 8 of them (every micro-batch's) the first virtual stage's.
  CHECK(workload::stage_footprint(m, p, 0).activations.value() == zs::test::approx(11 * layer + 8 * mask));
}

TEST_CASE("partial recomputation keeps each group's input and the other layers' activations") {
  const auto m = gpt();  // 8 layers on one stage, one micro-batch in flight
  auto p = plan(1, 1, 1, 0);
  p.global_batch = 1;
  const double full = workload::layer_activation_bytes(m, p, 0, Recompute::kNone);
  const double input = workload::layer_activation_bytes(m, p, 0, Recompute::kFull);
  struct Case {
    workload::RecomputeMethod method;
    uint32_t layers;
    double activations, buffers;
  };
  using M = workload::RecomputeMethod;
  p.recompute = Recompute::kFull;
  for (const auto& c : {Case{M::kUniform, 1, 8 * input, full}, Case{M::kUniform, 3, 3 * input, 3 * full},
                        Case{M::kUniform, 8, input, 8 * full}, Case{M::kBlock, 3, 3 * input + 5 * full, full},
                        Case{M::kBlock, 20, 8 * input, full}}) {
    CAPTURE(c.layers);
    p.recompute_method = c.method;
    p.recompute_layers = c.layers;
    const auto f = workload::stage_footprint(m, p, 0);
    // One stage is both ends: the embedding's mask, the final norm's input and the fp32 logits.
    const double ends = 3 * 2048.0 * 1024 + 4 * 2048.0 * 50000;
    CHECK(f.activations.value() == zs::test::approx(c.activations + ends));
    CHECK(f.buffers.value() == zs::test::approx(c.buffers));
  }
}

TEST_CASE(
    "Megatron-LM's bf16 gradients are fp32: its distributed optimizer needs 6 + 12/d bytes per parameter") {
  const auto m = gpt();  // bf16
  const double psi = m.total_params(), d = 8;
  auto p = plan(8, 1, 1, 1);
  p.gradient_dtype.reset();  // left out: Megatron-LM's rule
  CHECK(p.gradients_in(m) == core::Dtype::kFp32);
  const auto f = workload::stage_footprint(m, p, 0);
  CHECK((f.weights + f.gradients + f.optimizer).value() == zs::test::approx(6 * psi + 12 * psi / d));
  auto fp16 = m;
  fp16.dtype = core::Dtype::kFp16;  // Megatron-LM keeps fp16 models' gradients in fp16
  CHECK(p.gradients_in(fp16) == core::Dtype::kFp16);
  CHECK(workload::stage_footprint(fp16, p, 0).gradients.value() == zs::test::approx(2 * psi));
}
