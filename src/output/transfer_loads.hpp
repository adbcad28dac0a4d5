// What each recorded network transfer loads: its link directions, the memory pools and the optical
// switches on its route, in seconds of their full bandwidth (timeline counters and time series share it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "engine/replay_timeline.hpp"
#include "topology/machine.hpp"

namespace zs::output {

struct TransferLoad {
  enum class Resource : uint8_t { kLinkDirection, kMemoryPool, kOpticalSwitch };
  Resource resource = Resource::kLinkDirection;
  /// The direction (2 l: link l from its end a to b, 2 l + 1 back), the pool's node, the switch's index.
  uint32_t id = 0;
  double start = 0, end = 0;  ///< the transfer's lifetime, s (end > start)
  /// Its bytes over the resource's bandwidth, s: a link direction's, a pool's, or the summed bandwidth of all
  /// the circuits an optical switch can set up (both directions).
  double seconds = 0;
};

/// Calls `load` for each resource each transfer with a duration loads, in the record's order.
void for_each_transfer_load(const topology::Machine& m, const engine::ReplayTimeline& record,
                            const std::function<void(const TransferLoad&)>& load);

/// "A -> B": a link direction by its end nodes' names.
std::string direction_name(const topology::Topology& topo, uint32_t direction);

}  // namespace zs::output
