// The default plan under the ideal-data-parallel and megatron generators: the difference itemized.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/approx.hpp"
#include "support/default_scenario.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"
#include "support/test_models.hpp"

using namespace zs;
using workload::ComputeOp;

namespace {

scenario::Scenario default_with(const test::TempDir& dir, const std::string& name,
                                const std::function<void(nlohmann::json&)>& edit) {
  return test::default_scenario_with(dir, name, edit);
}

/// One rank's compute-stream ops summed, on the unit model: time, launches and bytes by what they are.
struct ComputeItems {
  double matrix_flops = 0, matrix_s = 0;  ///< matrix products outside the optimizer (launches excluded)
  double elementwise_bytes = 0, elementwise_s = 0;  ///< forward and backward vector work but the loss
  double loss_bytes = 0, loss_s = 0;                ///< the cross-entropy loss, forward and backward
  double optimizer_bytes = 0, optimizer_s = 0;      ///< gradient passes and the Adam step
  double kernels = 0;
  double total_s = 0;  ///< every compute op, launches included
};

ComputeItems items_of(const scenario::Scenario& s) {
  const hw::ComputeUnitModel& unit = s.machine.unit_models.at(0);
  const double launch = unit.kernel_launch_overhead().value();
  ComputeItems it;
  for (const auto& op : s.trace.roles.at(0).ops) {
    const auto* c = std::get_if<ComputeOp>(&op.body);
    if (c == nullptr) continue;
    const double t = unit.compute_time({c->flops, c->bytes, c->dtype, c->kind, c->kernels}).value();
    const double work = t - c->kernels * launch;
    it.kernels += c->kernels;
    it.total_s += t;
    if (op.phase == "optimizer" || op.phase == "gradient-sync") {
      it.optimizer_bytes += c->bytes.value();
      it.optimizer_s += work;
    } else if (c->kind == core::WorkKind::kMatrix) {
      it.matrix_flops += c->flops.value();
      it.matrix_s += work;
    } else if (op.name.find("/loss/") != std::string::npos) {
      it.loss_bytes += c->bytes.value();
      it.loss_s += work;
    } else {
      it.elementwise_bytes += c->bytes.value();
      it.elementwise_s += work;
    }
  }
  return it;
}

// GPT-3 1.3B (24 layers, h 2048, FFN 8192 with GELU, V 51200, s 2048, bf16) over 8 ranks, 2 sequences a
// micro-batch, 128 a batch: 8 micro-batches per rank of T = 4096 tokens.
constexpr double kLayers = 24, kH = 2048, kF = 8192, kV = 51200, kT = 2 * 2048.0, kMicroBatches = 8;
/// H100 SXM: HBM 3.35 TB/s at 0.9.
constexpr double kHbm = 3.35e12 * 0.9;

}  // namespace

TEST_CASE(
    "the default plan: megatron's compute is the ideal generator's plus its element-wise, loss and "
    "optimizer passes and their launches") {
  test::TempDir dir;
  const auto megatron = default_with(dir, "megatron.json", [](nlohmann::json&) {});
  const auto ideal = default_with(dir, "ideal.json", [](nlohmann::json& w) {
    w["generator"] = "ideal-data-parallel";
    w.erase("overlap_gradient_reduction");
  });
  const ComputeItems m = items_of(megatron), i = items_of(ideal);
  const double params = test::megatron_gpt_parameters(kLayers, kH, kV, 2048);

  // The same matrix work: every rank does 1/8 of the model's FLOPs, in the same time (the H100 model's
  // matrix efficiency does not depend on the kernel's size).
  CHECK(m.matrix_flops == test::approx(megatron.trace.model_flops.value() / 8).epsilon(1e-9));
  CHECK(i.matrix_flops == test::approx(m.matrix_flops).epsilon(1e-9));
  CHECK(i.matrix_s == test::approx(m.matrix_s).epsilon(1e-9));
  // What the ideal generator leaves out: norms and residual adds (5 T h per block, two blocks) and GELU
  // (2 T f), read and written in bf16, backward twice; the loss over T x V logits (22 B forward, 14
  // backward); both memory-bound.
  CHECK(i.elementwise_bytes == 0);
  CHECK(i.loss_bytes == 0);
  const double per_layer = (2 * 5 * kT * kH + 2 * kT * kF) * 2;
  CHECK(m.elementwise_bytes == test::approx(kMicroBatches * kLayers * 3 * per_layer).epsilon(1e-9));
  CHECK(m.elementwise_s == test::approx(m.elementwise_bytes / kHbm).epsilon(1e-9));
  CHECK(m.loss_bytes == test::approx(kMicroBatches * (22 + 14) * kT * kV).epsilon(1e-9));
  CHECK(m.loss_s == test::approx(m.loss_bytes / kHbm).epsilon(1e-9));
  // The optimizer: Adam over bf16 gradients in the ideal; over fp32 main gradients in Megatron-LM, with
  // the global norm (4 B read) and the clipping pass (4 B read, 4 written) before it: 2 + 4 + 8 B more
  // per parameter.
  CHECK(m.optimizer_bytes - i.optimizer_bytes == test::approx(14 * params).epsilon(1e-9));
  CHECK(m.optimizer_s - i.optimizer_s == test::approx(14 * params / kHbm).epsilon(1e-9));
  // Every op is a launch: the rest of the difference is megatron's extra kernels at 4 us.
  const double launches = (m.kernels - i.kernels) * 4e-6;
  CHECK(m.kernels > i.kernels);
  const double items = (m.elementwise_s + m.loss_s) + (m.optimizer_s - i.optimizer_s) + launches;
  CHECK(m.total_s - i.total_s == test::approx(items).epsilon(1e-9));
  MESSAGE("per rank: matrix ", m.matrix_s, " s; element-wise ", m.elementwise_s, " s; loss ", m.loss_s,
          " s; optimizer ", m.optimizer_s - i.optimizer_s, " s more; launches ", launches, " s more (",
          m.kernels - i.kernels, " kernels)");
}

TEST_CASE(
    "the default plan replayed: the generators' compute differs by those items, their gradient "
    "all-reduces by the gradients' dtype") {
  test::TempDir dir;
  const auto ideal = default_with(dir, "ideal.json", [](nlohmann::json& w) {
    w["generator"] = "ideal-data-parallel";
    w.erase("overlap_gradient_reduction");
  });
  // Megatron-LM as near the ideal as its options go: bf16 gradients, no clipping.
  const auto near = default_with(dir, "near.json", [](nlohmann::json& w) {
    w["gradient_dtype"] = "bf16";
    w["gradient_clipping"] = false;
  });
  const auto megatron = default_with(dir, "megatron.json", [](nlohmann::json&) {});
  const auto ri = study::simulate_scenario(ideal).replay.critical();
  const auto rn = study::simulate_scenario(near).replay.critical();
  const auto rm = study::simulate_scenario(megatron).replay.critical();
  const ComputeItems i = items_of(ideal), n = items_of(near);
  // Both reduce a layer's bf16 gradients as its backward ends: the last layer's (with the embedding)
  // all-reduce is exposed alike, and the compute differs by the items above; Megatron-LM's optimizer
  // still copies the bf16 gradients to fp32 main gradients (2 B read, 4 written) and Adam reads those
  // (2 B more): 8 B per parameter.
  const double params = test::megatron_gpt_parameters(kLayers, kH, kV, 2048);
  CHECK(n.optimizer_s - i.optimizer_s == test::approx(8 * params / kHbm).epsilon(1e-9));
  CHECK(rn.exposed_comm.value() == test::approx(ri.exposed_comm.value()).epsilon(0.01));
  CHECK(rn.compute.value() - ri.compute.value() == test::approx(n.total_s - i.total_s).epsilon(0.01));
  // Megatron-LM's default fp32 gradients double the bytes of that last all-reduce.
  CHECK(rm.exposed_comm.value() / rn.exposed_comm.value() == test::approx(2.0).epsilon(0.05));
}
