// What a replay records for a timeline when asked: every op's span, the point-to-point pairs and the
// bytes each network transfer put on its links.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zs::engine {

/// Recorded by ReplayCore when SimulationEvents::record_timeline is set. Times are simulated, s.
struct ReplayTimeline {
  static constexpr uint32_t kNone = UINT32_MAX;
  /// One op of one simulated rank, from its start to its completion.
  struct OpSpan {
    uint32_t slot = 0;            ///< index into ReplayResult::ranks
    uint32_t op = 0;              ///< index into its role's ops
    double start = 0;             ///< s
    double end = 0;               ///< s
    uint32_t collective = kNone;  ///< collectives: index into `collectives`
    /// Collectives: when its last member joined, s (before it, the rank waits: the breakdown's
    /// collective_wait); -1 for other ops.
    double joined = -1;
  };
  /// A collective instance (one group's n-th call on a communicator).
  struct Collective {
    std::string algorithm;  ///< what the collective policy chose
  };
  /// A matched send and receive (both ranks simulated).
  struct P2PPair {
    uint32_t send_slot = 0, send_op = 0, recv_slot = 0, recv_op = 0;
  };
  /// A network transfer of exact fidelity: `bytes` on each link direction of its route (2 l: link l
  /// from its end a to b, 2 l + 1: b to a) between `start` and `end`.
  struct LinkTransfer {
    double start = 0, end = 0;  ///< s
    double bytes = 0;           ///< B
    uint32_t first = 0;         ///< index of its first direction in `directions`
    uint32_t count = 0;         ///< directions on its route
  };

  std::vector<uint32_t> unit_of_slot;  ///< the unit (topology node) each simulated rank ran on
  std::vector<OpSpan> spans;           ///< in completion order
  std::vector<Collective> collectives;
  std::vector<P2PPair> pairs;
  /// Exact fidelity only: collapsed fidelity costs communication analytically, without per-link
  /// transfers in time, so its timeline has no link counters.
  std::vector<LinkTransfer> link_transfers;
  std::vector<uint32_t> directions;
};

}  // namespace zs::engine
