// Collapsed fidelity: a collective schedule's transfers replayed on the fluid sharing model, in order.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace zs::engine {

/// One transfer of a schedule, costed alone (with the copies that move in lockstep with it).
struct ChainedTransfer {
  double latency = 0;                                   ///< route latency before its bytes flow, s
  double seconds = 0;                                   ///< drain time alone, s (0: it moves no bytes)
  std::vector<std::pair<uint32_t, double>> link_bytes;  ///< B per link direction, each once
  std::vector<uint32_t> after;                          ///< earlier transfers it waits for
};

/// When a schedule ends and how much of that is latency on its last chain.
struct ChainedRun {
  double seconds = 0;  ///< s from the start to the end of the last transfer
  double latency = 0;  ///< s of route latency along the chain of transfers that ended last
};

/// Replays `transfers` with their dependencies and no other synchronization, as exact fidelity runs a
/// schedule's flows: a transfer starts when every transfer in `after` has ended, waits its latency, then
/// drains on ConcurrentCharges (max-min sharing of the link directions with the transfers in flight).
/// Deterministic: events at the same time run starts before finishes, then in index order (transfer
/// index for starts, charge id for finishes).
ChainedRun run_chained(const std::vector<ChainedTransfer>& transfers,
                       const std::vector<double>& direction_bandwidth);

}  // namespace zs::engine
