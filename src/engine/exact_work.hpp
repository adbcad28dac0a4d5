// What exact fidelity would cost for a trace, estimated before anything is placed or replayed.
#pragma once

#include <string>

#include "workload/trace.hpp"

namespace zs::engine {

/// Exact fidelity's work grows with the rank-ops it tracks and with the flows SimGrid handles: at every
/// completion SimGrid scans each activity in flight, so a replay costs about transfers x flows in flight
/// scans. Estimated from the trace alone, as a ring or direct algorithm would run each collective: per
/// member of a group of n, 2(n-1) transfers for an all-reduce, n-1 for a reduce-scatter, all-gather or
/// all-to-all, one for a broadcast or reduce; one flow in flight per member (n-1 for an all-to-all);
/// every group of a communicator at once. Point-to-point ops and memory moves are one transfer each.
struct ExactWork {
  double rank_ops = 0;    ///< ranks x ops of the program each runs
  double transfers = 0;   ///< network transfers, estimated
  double peak_flows = 1;  ///< most flows in flight at once, estimated (at least 1)
  /// Activity scans SimGrid would make: transfers x flows in flight.
  double scans() const { return transfers * peak_flows; }
};

/// The estimate above for `trace`.
ExactWork estimate_exact_work(const workload::Trace& trace);

/// The most rank-ops (ranks x ops of the program each runs) exact fidelity takes on: about 2^24, what
/// a 2-core machine replays in minutes with a few GiB (the replayer keeps per-rank, per-op state).
/// Beyond it exact replay would run for hours.
inline constexpr double kExactRankOpLimit = 16.0 * 1024 * 1024;

/// The most activity scans (ExactWork::scans) auto fidelity runs exact: about 2^31, a minute or two on
/// one core (measured: a 2,048-rank ring all-reduce, 1.7e10 scans, replays in about 10 minutes).
inline constexpr double kExactScanLimit = 2.0 * 1024 * 1024 * 1024;

/// Whether exact fidelity replays `work` in minutes: within both limits above.
inline bool within_exact_limits(const ExactWork& work) {
  return work.rank_ops <= kExactRankOpLimit && work.scans() <= kExactScanLimit;
}

/// Why auto fidelity chose what it chose for `work`, in one phrase ("auto: ...").
std::string auto_fidelity_reason(const ExactWork& work, bool collapsed);

}  // namespace zs::engine
