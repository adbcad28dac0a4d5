// What each rank of a job sends per iteration and to whom, read from the trace (no algorithm assumed).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "workload/trace.hpp"

namespace zs::policy {

/// Bytes each rank sends per collective, algorithm-independent (the ring's, which the bandwidth-optimal
/// algorithms share): 2(n-1)/n S for all-reduce, (n-1)/n S for reduce-scatter, all-gather and
/// all-to-all, S for broadcast and reduce; point-to-point sends their bytes. Destinations: the next
/// member of the group for collectives (the ring neighbour), up to 16 members spread over the group for
/// all-to-all (the bytes split evenly among them), the peer for point-to-point.
class RankTraffic {
 public:
  explicit RankTraffic(const workload::Trace& trace);

  /// One destination of a rank's traffic: `bytes` (B per iteration) to `peer` under `name` (a
  /// communicator, or "p2p:<axis>"). A communicator with nothing to send gives one send to the rank
  /// itself with 0 bytes, so that every communicator of the rank is named.
  struct Send {
    const std::string* name;
    uint64_t peer;
    double bytes;
  };
  /// Appends the sends of `rank` to `out` (cleared first), in a fixed order.
  void sends_of(uint64_t rank, std::vector<Send>& out) const;

 private:
  struct RoleSends {
    std::map<std::string, double> ring, spread;                    ///< communicator -> B
    std::map<std::tuple<std::string, int32_t, bool>, double> p2p;  ///< (axis, offset, wrap) -> B
    std::map<std::string, std::string> p2p_names;                  ///< axis -> "p2p:<axis>"
  };
  const workload::Trace& trace_;
  std::vector<RoleSends> roles_;
  std::map<std::string, workload::CommunicatorGroups> groups_of_;  ///< per communicator
};

}  // namespace zs::policy
