// A stage's gradient synchronization and optimizer step.
#include "workload/stage_builder.hpp"

#include <algorithm>
#include <cmath>

#include "workload/adam_step.hpp"
#include "workload/gradient_compression.hpp"
#include "workload/gradient_passes.hpp"
#include "workload/mesh_axes.hpp"

namespace zs::workload {

StageBuilder::Matrices StageBuilder::layer_matrices(uint32_t l) const {
  if (!model_.is_moe_layer(l)) return {4.0, 0.0};
  const auto& moe = *model_.moe;
  return {2.0 + 1.0 + 2.0 * moe.shared_experts, 2.0 * moe.experts / plan_.expert_parallel};
}

double StageBuilder::extras_matrices() const {
  const double embedding = double(model_.vocab) * model_.hidden / tp();
  return std::ceil(extras_dense() / embedding);
}

uint32_t StageBuilder::reduce_group(const std::string& name, const std::string& phase,
                                    const std::string& axis, uint32_t group, double elements,
                                    double matrices) {
  GradientReduction reduction;
  reduction.kind = plan_.zero_stage == 0 ? CollectiveKind::kAllReduce : CollectiveKind::kReduceScatter;
  reduction.axis = axis;
  reduction.elements = elements;
  reduction.gradient_bytes = gradient_elem();
  reduction.group = group;
  reduction.matrices = std::max(matrices, 1.0);
  reduction.rows = model_.hidden;
  // Before the first collective, compression reads the gradients on the compute stream; the collectives
  // and what follows them run on the data-parallel stream, each step after the previous one.
  uint32_t previous = last_compute_;
  bool communicated = false;
  for (auto& step : compressed_reduction(plan_.gradient_compression, reduction)) {
    if (auto* c = std::get_if<CollectiveOp>(&step.body)) {
      previous = add(name + "-" + std::string(to_string(c->kind)) + "-gradients", phase, kDataParallel,
                     {previous}, std::move(*c));
      communicated = true;
    } else {
      previous = add(name + "-" + step.name, phase, communicated ? kDataParallel : kCompute, {previous},
                     std::get<ComputeOp>(std::move(step.body)));
    }
  }
  return previous;
}

std::vector<uint32_t> StageBuilder::reduce_gradients(const std::string& at, const std::string& phase,
                                                     double dense, double experts, Matrices matrices) {
  std::vector<uint32_t> ids;
  if (plan_.dense_replicas() > 1 && dense > 0)
    ids.push_back(
        reduce_group(at + "dp", phase, axis_names::kData, plan_.dense_replicas(), dense, matrices.dense));
  if (layout_.expert_sync && experts > 0)
    ids.push_back(reduce_group(at + "expert-dp", phase, axis_names::kExpertReplicas, plan_.expert_replicas(),
                               experts, matrices.experts));
  return ids;
}

double StageBuilder::extras_dense() const {
  double layers_dense = 0;
  for (uint32_t c = 0; c < plan_.chunks(); ++c)
    for (uint32_t l : chunk_layers(model_, plan_, stage_, c)) layers_dense += layer_dense(l);
  return params_.dense - layers_dense;
}

uint32_t StageBuilder::extras_chunk() const {
  return stage_ + 1 == plan_.pipeline_parallel ? plan_.chunks() - 1 : 0;
}

void StageBuilder::reduce_chunk_gradients(const std::string& at, uint32_t chunk) {
  double dense = 0, experts = 0;
  for (uint32_t l : chunk_layers(model_, plan_, stage_, chunk)) {
    dense += layer_dense(l);
    experts += layer_experts(l);
  }
  if (chunk == extras_chunk()) dense += extras_dense();
  reduce_gradients(at, "gradient-sync", dense, experts);
}

std::vector<StageBuilder::Bucket> StageBuilder::buckets(uint32_t chunk) const {
  const auto layers = chunk_layers(model_, plan_, stage_, chunk);
  std::vector<Bucket> out;
  for (uint32_t l : layers) {
    if (out.empty() || chunk == 0) out.push_back({l, 0.0, 0.0, {0.0, 0.0}});
    out.back().dense += layer_dense(l);
    out.back().experts += layer_experts(l);
    out.back().matrices.dense += layer_matrices(l).dense;
    out.back().matrices.experts += layer_matrices(l).experts;
  }
  if (chunk == extras_chunk()) {  // every chunk has a layer
    out.front().dense += extras_dense();
    out.front().matrices.dense += extras_matrices();
  }
  return out;
}

void StageBuilder::reduce_bucket(const std::string& at, const Bucket& bucket) {
  for (uint32_t id : reduce_gradients(at, "gradient-sync", bucket.dense, bucket.experts, bucket.matrices))
    gradient_reductions_.push_back(id);
}

void StageBuilder::gather_parameters() {
  const bool dense = plan_.dense_replicas() > 1, experts = layout_.expert_sync;
  for (uint32_t c = 0; c < plan_.chunks(); ++c)
    for (const Bucket& b : buckets(c)) {
      const std::string at = layer_prefix("parameter-gather/", b.first_layer);
      auto& ids = parameter_gathers_[b.first_layer];
      if (dense && b.dense > 0)
        ids.push_back(
            add(at + "dp-all-gather-weights", "forward", kDataParallel, {},
                CollectiveOp{CollectiveKind::kAllGather, axis_names::kData, core::Bytes(b.dense * elem())}));
      if (experts && b.experts > 0)
        ids.push_back(add(at + "expert-dp-all-gather-weights", "forward", kDataParallel, {},
                          CollectiveOp{CollectiveKind::kAllGather, axis_names::kExpertReplicas,
                                       core::Bytes(b.experts * elem())}));
    }
}

void StageBuilder::sync_embedding_gradients(const std::vector<uint32_t>& after_sync) {
  const bool first = stage_ == 0, last = stage_ + 1 == plan_.pipeline_parallel;
  if (!model_.tied_embeddings || plan_.pipeline_parallel == 1 || !(first || last)) return;
  const double elements = double(model_.vocab) * model_.hidden / tp();
  const core::Bytes bytes(elements * gradient_elem());
  const int32_t peer = first ? -1 : +1;
  add("optimizer/embedding-gradients/send", "gradient-sync", first ? kSendPrev : kSendNext, after_sync,
      P2POp{P2PDirection::kSend, axis_names::kPipeline, peer, bytes, true});
  add("optimizer/embedding-gradients/recv", "gradient-sync", kCompute, after_sync,
      P2POp{P2PDirection::kRecv, axis_names::kPipeline, peer, bytes, true});
  add("optimizer/embedding-gradients/add", "gradient-sync", kCompute, {},
      ComputeOp{core::Flops(elements), core::Bytes(3.0 * elements * gradient_elem()),
                plan_.gradients_in(model_), core::WorkKind::kVector, 1});
}

void StageBuilder::prepare_gradients(double shard, const std::vector<uint32_t>& after_sync) {
  const double g = gradient_elem();
  if (g < kMainGradientBytes)
    add("optimizer/gradients-to-fp32", "optimizer", kCompute, after_sync,
        gradient_pass(GradientPass::kToFp32, shard, g));
  if (model_.dtype == core::Dtype::kFp16) {
    add("optimizer/unscale-gradients", "optimizer", kCompute, after_sync,
        gradient_pass(GradientPass::kUnscale, shard, g));
    if (layout_.norm_reduction)
      collective("optimizer/found-inf-all-reduce", "optimizer", CollectiveKind::kAllReduce,
                 kGradientNormGroup, core::Bytes(kGradientScalarBytes));
  }
  if (!plan_.gradient_clipping) return;
  add("optimizer/gradient-norm", "optimizer", kCompute, after_sync,
      gradient_pass(GradientPass::kNorm, shard, g));
  if (layout_.norm_reduction)
    collective("optimizer/gradient-norm-all-reduce", "optimizer", CollectiveKind::kAllReduce,
               kGradientNormGroup, core::Bytes(kGradientScalarBytes));
  add("optimizer/clip-gradients", "optimizer", kCompute, {}, gradient_pass(GradientPass::kClip, shard, g));
}

void StageBuilder::optimizer() {
  if (plan_.zero_stage <= 1 && !plan_.overlap_gradient_reduction) {
    Matrices matrices{extras_matrices(), 0.0};
    for (uint32_t c = 0; c < plan_.chunks(); ++c)
      for (uint32_t l : chunk_layers(model_, plan_, stage_, c)) {
        matrices.dense += layer_matrices(l).dense;
        matrices.experts += layer_matrices(l).experts;
      }
    reduce_gradients("", "gradient-sync", params_.dense, params_.experts, matrices);
  }
  const double dense_shard = plan_.zero_stage >= 1 ? params_.dense / plan_.dense_replicas() : params_.dense;
  const double expert_shard =
      plan_.zero_stage >= 1 ? params_.experts / plan_.expert_replicas() : params_.experts;
  const double shard = dense_shard + expert_shard;
  // The last op and every gradient reduction, each once (the last op may be a reduction itself), in
  // program order, as a Chakra trace lists a node's dependencies.
  std::vector<uint32_t> after_sync = gradient_reductions_;
  if (!program_.ops.empty()) after_sync.push_back(static_cast<uint32_t>(program_.ops.size() - 1));
  std::sort(after_sync.begin(), after_sync.end());
  after_sync.erase(std::unique(after_sync.begin(), after_sync.end()), after_sync.end());
  // The iteration's host work runs on the compute stream while the gradients are reduced; what follows
  // waits for both.
  host_wait("optimizer/host", "optimizer", stack_.per_iteration);
  sync_embedding_gradients(after_sync);
  prepare_gradients(shard, after_sync);
  const core::Bytes state(precision_.optimizer_bytes() * shard);
  if (plan_.offload_optimizer)
    add("optimizer/load-state", "optimizer", kCompute, after_sync, MemoryOp{MemoryDirection::kRead, state});
  add("optimizer/adam", "optimizer", kCompute, after_sync,
      adam_step(shard, kMainGradientBytes, precision_.moment_bytes()));
  if (plan_.offload_optimizer)
    add("optimizer/store-state", "optimizer", kCompute, {}, MemoryOp{MemoryDirection::kWrite, state});
  if ((plan_.zero_stage == 1 || plan_.zero_stage == 2) && !plan_.overlap_parameter_gather) {
    if (plan_.dense_replicas() > 1)
      add("optimizer/dp-all-gather-weights", "optimizer", kDataParallel, {last_compute_},
          CollectiveOp{CollectiveKind::kAllGather, axis_names::kData, core::Bytes(params_.dense * elem())});
    if (layout_.expert_sync && params_.experts > 0)
      add("optimizer/expert-dp-all-gather-weights", "optimizer", kDataParallel, {last_compute_},
          CollectiveOp{CollectiveKind::kAllGather, axis_names::kExpertReplicas,
                       core::Bytes(params_.experts * elem())});
  }
}

}  // namespace zs::workload
