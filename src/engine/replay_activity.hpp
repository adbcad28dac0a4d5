// One activity a replay has in flight on SimGrid, and what its end completes.
#pragma once

#include <cstdint>

namespace zs::engine {

/// The replay core completes ops, point-to-point pairs and collective transfers; the other kinds belong
/// to one fidelity, which completes them itself (ReplayFidelity::complete).
struct ReplayActivity {
  enum class Kind : uint8_t {
    kOp,
    kCollectiveTransfer,
    kP2P,
    kHeldTransfer,     ///< exact: a held transfer may start (`held`: its circuits are up or its wait is over)
    kCollectiveTimer,  ///< collapsed: a part of collective `instance` ended
    kChargeTimer,      ///< collapsed: the earliest finish among the charges in flight (`transfer`: which
                       ///< arming of the timer)
    kCollectiveReady   ///< collapsed: part `transfer` of collective `instance` starts (its members joined)
  };
  Kind kind = Kind::kOp;
  uint64_t rank = 0;       ///< op, p2p: the rank (the sender for p2p)
  uint32_t op = 0;         ///< op, p2p: the op
  uint32_t instance = 0;   ///< collective transfer, timer: the collective instance
  uint32_t transfer = 0;   ///< collective transfer: index in its schedule
  uint64_t peer_rank = 0;  ///< p2p: the receiver
  uint32_t peer_op = 0;    ///< p2p: the receiver's op
  uint32_t held = 0;       ///< held transfer: its index
  uint32_t chained = 0;    ///< op: compute ops after `op` run in the same activity (ReplayCore::start_op)
};

}  // namespace zs::engine
