// Pipeline schedules: GPipe, 1F1B and interleaved 1F1B step orders.
#include "workload/pipeline_order.hpp"

#include <algorithm>

namespace zs::workload {
namespace {

/// Megatron-LM's mapping of the k-th forward (or backward) of an interleaved stage to its
/// micro-batch and chunk: micro-batches go in groups of `stages`, each group through every chunk.
PipelineStep interleaved_step(bool forward, uint32_t k, uint32_t stages, uint32_t chunks) {
  const uint32_t in_group = k % (stages * chunks);
  uint32_t chunk = in_group / stages;
  if (!forward) chunk = chunks - 1 - chunk;
  return {forward, (k / (stages * chunks)) * stages + k % stages, chunk};
}

}  // namespace

std::vector<PipelineStep> pipeline_order(PipelineSchedule schedule, uint32_t stage, uint32_t stages,
                                         uint32_t micro_batches, uint32_t chunks) {
  std::vector<PipelineStep> order;
  if (schedule == PipelineSchedule::kGpipe) {
    for (uint32_t c = 0; c < chunks; ++c)
      for (uint32_t i = 0; i < micro_batches; ++i) order.push_back({true, i, c});
    for (uint32_t c = chunks; c-- > 0;)
      for (uint32_t i = 0; i < micro_batches; ++i) order.push_back({false, i, c});
    return order;
  }
  if (schedule == PipelineSchedule::k1F1B) {
    const uint32_t warmup = std::min(stages - stage - 1, micro_batches);
    for (uint32_t i = 0; i < warmup; ++i) order.push_back({true, i, 0});
    for (uint32_t i = 0; i + warmup < micro_batches; ++i) {
      order.push_back({true, warmup + i, 0});
      order.push_back({false, i, 0});
    }
    for (uint32_t i = micro_batches - warmup; i < micro_batches; ++i) order.push_back({false, i, 0});
    return order;
  }
  const uint32_t total = micro_batches * chunks;
  uint32_t warmup = micro_batches == stages ? total : (stages - stage - 1) * 2 + (chunks - 1) * stages;
  warmup = std::min(warmup, total);
  for (uint32_t k = 0; k < warmup; ++k) order.push_back(interleaved_step(true, k, stages, chunks));
  for (uint32_t k = 0; k + warmup < total; ++k) {
    order.push_back(interleaved_step(true, warmup + k, stages, chunks));
    order.push_back(interleaved_step(false, k, stages, chunks));
  }
  for (uint32_t k = total - warmup; k < total; ++k)
    order.push_back(interleaved_step(false, k, stages, chunks));
  return order;
}

}  // namespace zs::workload
