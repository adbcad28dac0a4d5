// Where a pipeline stage's sends, receives and waits go among its steps under Megatron-LM 2021's batched
// exchanges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workload/pipeline_order.hpp"

namespace zs::workload {

/// One thing a stage's program does, in order.
struct StageAction {
  enum class Kind {
    kCompute,  ///< the step's passes, without exchanges
    kSend,     ///< the step's send, if it has one (activations onward, or gradients back)
    kReceive,  ///< the step's receive, if it has one
    kWait,     ///< the compute after this waits for the sends posted since the previous wait
  };
  Kind kind;
  size_t step = 0;  ///< index into the stage's steps (none for kWait)
  bool operator==(const StageAction&) const = default;
};

/// Megatron-LM 2021's schedules (the plan's batched_exchanges): an exchange after every step but a
/// forward that the interleaved schedule pairs with the backward after it (`chunks` > 1, in the steady
/// state); each exchange posts the sends of the steps since the previous one and the receives of the
/// steps up to the next one, and the next compute waits for all of them (batch_isend_irecv, wait, device
/// synchronize). Receives run in order after the sends are posted, so no exchange waits on a neighbour's
/// send. A stage without a steady state (every step a warm-up forward, as when m = p) exchanges after
/// every step.
std::vector<StageAction> batched_exchange_actions(const std::vector<PipelineStep>& steps, uint32_t chunks);

}  // namespace zs::workload
