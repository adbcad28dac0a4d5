// Data-parallel training trace generation.
#include "workload/data_parallel_generator.hpp"

#include <string>

#include "workload/adam_step.hpp"
#include "workload/mesh_axes.hpp"

namespace zs::workload {
namespace {

constexpr uint32_t kComputeStream = 0;
constexpr uint32_t kCommStream = 1;

class ProgramBuilder {
 public:
  explicit ProgramBuilder(RoleProgram& program) : program_(program) {}

  uint32_t compute(std::string name, std::string phase, ComputeOp body) {
    return add({std::move(name), std::move(phase), kComputeStream, {}, body});
  }
  uint32_t collective(std::string name, CollectiveOp body, uint32_t after) {
    return add({std::move(name), "gradient-sync", kCommStream, {after}, body});
  }
  uint32_t add(Op op) {
    program_.ops.push_back(std::move(op));
    return static_cast<uint32_t>(program_.ops.size() - 1);
  }
  Op& op(uint32_t i) { return program_.ops[i]; }

 private:
  RoleProgram& program_;
};

}  // namespace

const core::ParamTable& DataParallelPlan::params() {
  using core::Param;
  static const core::ParamTable table(
      "workload.ideal-data-parallel",
      "an idealization for closed-form checks: every rank holds the whole model, a layer's pass is one "
      "matrix kernel, gradients all-reduced per layer",
      {Param::integer("data_parallel", 1, 1 << 22, "ranks, each with a whole replica"),
       Param::integer("micro_batch", 1, 1 << 20, "sequences per rank per micro-batch"),
       Param::integer("global_batch", 1, 1 << 30,
                      "sequences per iteration, whole job (a multiple of data_parallel x micro_batch)")});
  return table;
}

DataParallelPlan DataParallelPlan::from_params(core::ParamReader& json) {
  DataParallelPlan p;
  p.data_parallel = static_cast<uint32_t>(json.get<int64_t>("data_parallel"));
  p.micro_batch = static_cast<uint32_t>(json.get<int64_t>("micro_batch"));
  p.global_batch = static_cast<uint32_t>(json.get<int64_t>("global_batch"));
  uint64_t per_step = uint64_t(p.data_parallel) * p.micro_batch;
  if (p.global_batch % per_step != 0)
    throw json.error("global_batch",
                     "global batch " + std::to_string(p.global_batch) +
                         " is not a multiple of data_parallel x micro_batch = " + std::to_string(per_step));
  return p;
}

nlohmann::json DataParallelPlan::derived() const {
  return {{"accumulation_steps", accumulation_steps()}};
}

core::Bytes model_state_bytes(const TransformerSpec& model) {
  return core::Bytes(16.0 * model.total_params());
}

Trace generate_data_parallel_trace(const TransformerSpec& model, const DataParallelPlan& plan) {
  Trace trace;
  trace.name = model.name + "-dp" + std::to_string(plan.data_parallel);
  trace.mesh = Mesh({{axis_names::kData, plan.data_parallel}});
  trace.streams = {"compute", "comm"};
  trace.model_dtype = model.dtype;
  trace.model_flops = model.training_flops(plan.global_batch);
  trace.tokens_per_iteration = double(plan.global_batch) * model.seq_len;
  trace.roles.push_back({"rank", {}});
  ProgramBuilder b(trace.roles.back());

  const double elem = core::bytes_per_element(model.dtype);
  const core::Bytes embedding_weights(double(model.vocab) * model.hidden * elem);
  const core::Flops logits_fwd = model.logits_forward_flops(plan.micro_batch);
  auto matrix = [&](core::Flops f, core::Bytes bytes) {
    return ComputeOp{f, bytes, model.dtype, core::WorkKind::kMatrix, 1};
  };

  const uint32_t steps = plan.accumulation_steps();
  std::vector<uint32_t> grad_syncs;
  for (uint32_t m = 0; m < steps; ++m) {
    const std::string mb = "mb" + std::to_string(m) + "/";
    for (uint32_t l = 0; l < model.layers; ++l)
      b.compute(
          mb + "layer" + std::to_string(l) + "/forward", "forward",
          matrix(model.layer_forward_flops(l, plan.micro_batch), core::Bytes(model.layer_params(l) * elem)));
    b.compute(mb + "logits/forward", "forward", matrix(logits_fwd, embedding_weights));
    b.compute(mb + "logits/backward", "backward", matrix(logits_fwd * 2.0, embedding_weights * 2.0));
    for (uint32_t l = model.layers; l-- > 0;) {
      uint32_t bwd = b.compute(mb + "layer" + std::to_string(l) + "/backward", "backward",
                               matrix(model.layer_forward_flops(l, plan.micro_batch) * 2.0,
                                      core::Bytes(2 * model.layer_params(l) * elem)));
      if (m + 1 != steps) continue;
      double params = model.layer_params(l) + (l == 0 ? model.embedding_params() : 0.0);
      CollectiveOp sync{CollectiveKind::kAllReduce, axis_names::kData, core::Bytes(params * elem)};
      grad_syncs.push_back(b.collective("layer" + std::to_string(l) + "/grad-all-reduce", sync, bwd));
    }
  }
  const double params = model.total_params();
  uint32_t opt = b.compute("optimizer/adam", "optimizer", adam_step(params));
  b.op(opt).deps = grad_syncs;
  return trace;
}

}  // namespace zs::workload
