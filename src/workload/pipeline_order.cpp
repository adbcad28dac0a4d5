// Pipeline schedules: GPipe, 1F1B and interleaved 1F1B step orders.
#include "workload/pipeline_order.hpp"

#include <algorithm>

namespace zs::workload {
namespace {

/// The interleaved schedule's (micro-batch, chunk) of the k-th forward, in order: micro-batches in groups
/// of `group`, each group through every chunk; the last group is what is left (Megatron-Core's schedule
/// table). A backward takes the same entry with its chunk counted from the last.
std::vector<PipelineStep> interleaved_table(uint32_t micro_batches, uint32_t chunks, uint32_t group) {
  std::vector<PipelineStep> table;
  for (uint32_t first = 0; first < micro_batches; first += group) {
    const uint32_t end = first + group >= micro_batches ? micro_batches : first + group;
    for (uint32_t c = 0; c < chunks; ++c)
      for (uint32_t mb = first; mb < end; ++mb) table.push_back({true, mb, c});
  }
  return table;
}

PipelineStep interleaved_step(const std::vector<PipelineStep>& table, bool forward, uint32_t k,
                              uint32_t chunks) {
  PipelineStep step = table[k];
  step.forward = forward;
  if (!forward) step.chunk = chunks - 1 - step.chunk;
  return step;
}

}  // namespace

std::vector<PipelineStep> pipeline_order(PipelineSchedule schedule, uint32_t stage, uint32_t stages,
                                         uint32_t micro_batches, uint32_t chunks, uint32_t group) {
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
  if (group == 0) group = stages;
  const auto table = interleaved_table(micro_batches, chunks, group);
  const uint32_t total = micro_batches * chunks;
  // Megatron-LM 2021 ran a whole pipeline of micro-batches as warm-up; Megatron-Core's warm-up holds.
  uint32_t warmup =
      micro_batches == stages && group == stages ? total : (stages - stage - 1) * 2 + (chunks - 1) * group;
  warmup = std::min(warmup, total);
  for (uint32_t k = 0; k < warmup; ++k) order.push_back(interleaved_step(table, true, k, chunks));
  for (uint32_t k = 0; k + warmup < total; ++k) {
    order.push_back(interleaved_step(table, true, warmup + k, chunks));
    order.push_back(interleaved_step(table, false, k, chunks));
  }
  for (uint32_t k = total - warmup; k < total; ++k)
    order.push_back(interleaved_step(table, false, k, chunks));
  return order;
}

}  // namespace zs::workload
