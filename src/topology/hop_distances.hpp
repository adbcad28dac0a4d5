// Hop counts from a node over the links up at the start, and the electrical islands the optical circuits
// join.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "topology/machine.hpp"

namespace zs::topology {

inline constexpr uint32_t kUnreachable = std::numeric_limits<uint32_t>::max();

/// Links on the fewest-hop path from `from` to every node (kUnreachable when there is none), over the
/// links up at the start. Only switches forward: a path may start at a unit or pool but not pass
/// through one. Paths between two nodes of one pod stay in the pod (Topology::pod), as routes do.
std::vector<uint32_t> hops_from(const Machine& machine, NodeId from);

/// Per node, the index of its electrical island: the nodes joined without optical circuits (a pod of a
/// disaggregated machine). On a machine without optical switches every node is in island 0 (when the
/// network is connected). Islands are numbered in the order of their lowest node id.
std::vector<uint32_t> electrical_islands(const Machine& machine);

}  // namespace zs::topology
