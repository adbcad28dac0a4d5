// Megatron-LM 2021's batched pipeline exchanges, placed among a stage's steps.
#include "workload/pipeline_exchanges.hpp"

#include <algorithm>

namespace zs::workload {

std::vector<StageAction> batched_exchange_actions(const std::vector<PipelineStep>& steps, uint32_t chunks) {
  using Kind = StageAction::Kind;
  // A steady state: a backward before the last forward.
  const auto last_forward = std::find_if(steps.rbegin(), steps.rend(), [](auto& s) { return s.forward; });
  const bool steady = std::any_of(last_forward, steps.rend(), [](auto& s) { return !s.forward; });
  auto paired = [&](size_t i) {
    return steady && chunks > 1 && steps[i].forward && i + 1 < steps.size() && !steps[i + 1].forward;
  };
  std::vector<StageAction> actions;
  size_t sent_from = 0;
  // Sends of steps [sent_from, done), receives of the steps from `next` through the next unpaired one.
  auto exchange = [&](size_t done, size_t next) {
    for (size_t i = sent_from; i < done; ++i) actions.push_back({Kind::kSend, i});
    for (size_t i = next; i < steps.size(); ++i) {
      actions.push_back({Kind::kReceive, i});
      if (!paired(i)) break;
    }
    actions.push_back({Kind::kWait});
    sent_from = done;
  };
  exchange(0, 0);
  for (size_t i = 0; i < steps.size(); ++i) {
    actions.push_back({Kind::kCompute, i});
    if (!paired(i)) exchange(i + 1, i + 1);
  }
  return actions;
}

}  // namespace zs::workload
