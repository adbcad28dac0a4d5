// Pipeline schedules' step orders: every step once, Megatron-Core's micro-batch groups for interleaving.
#include <doctest/doctest.h>

#include <set>
#include <tuple>
#include <vector>

#include "workload/pipeline_order.hpp"

using namespace zs::workload;

namespace {

/// The (micro-batch, chunk) of each forward, in order.
std::vector<std::pair<uint32_t, uint32_t>> forwards(const std::vector<PipelineStep>& steps) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& s : steps)
    if (s.forward) out.emplace_back(s.micro_batch, s.chunk);
  return out;
}

/// Every (micro-batch, chunk) runs its forward once and then its backward once.
void check_complete(const std::vector<PipelineStep>& steps, uint32_t micro_batches, uint32_t chunks) {
  std::set<std::tuple<bool, uint32_t, uint32_t>> seen;
  for (const auto& s : steps) {
    CHECK(seen.insert({s.forward, s.micro_batch, s.chunk}).second);
    if (!s.forward) CHECK(seen.count({true, s.micro_batch, s.chunk}) == 1);
  }
  CHECK(seen.size() == 2u * micro_batches * chunks);
}

}  // namespace

TEST_CASE("interleaving in groups of the stages is Megatron-LM's order, every step once") {
  // 2 stages, 2 chunks, 4 micro-batches: groups of 2 through chunk 0, then chunk 1.
  const auto steps = pipeline_order(PipelineSchedule::kInterleaved1F1B, 0, 2, 4, 2);
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {{0, 0}, {1, 0}, {0, 1}, {1, 1},
                                                               {2, 0}, {3, 0}, {2, 1}, {3, 1}};
  CHECK(forwards(steps) == expected);
  check_complete(steps, 4, 2);
}

TEST_CASE(
    "micro-batches that the stages do not divide run in Megatron-Core's groups, the last one what is left") {
  // Megatron-Core's own example of its schedule table: 2 stages, 2 chunks, 5 micro-batches in groups of 3.
  const auto steps = pipeline_order(PipelineSchedule::kInterleaved1F1B, 1, 2, 5, 2, 3);
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1},
                                                               {2, 1}, {3, 0}, {4, 0}, {3, 1}, {4, 1}};
  CHECK(forwards(steps) == expected);
  for (uint32_t stage = 0; stage < 2; ++stage) {
    CAPTURE(stage);
    check_complete(pipeline_order(PipelineSchedule::kInterleaved1F1B, stage, 2, 5, 2, 3), 5, 2);
  }
  // Warm-up: (stages - stage - 1) x 2 + (chunks - 1) x group forwards before the first backward.
  const auto first = pipeline_order(PipelineSchedule::kInterleaved1F1B, 0, 2, 5, 2, 3);
  uint32_t warmup = 0;
  while (first[warmup].forward) ++warmup;
  CHECK(warmup == 2 + 3 + 1);  // the warm-up, then the steady state's first forward
}
