// Parts of the fabric seen from a job: cables per link, classes of links that cost alike, and what failed
// links cut off.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/machine.hpp"

namespace zs::reliability {

/// Physical cables a link of this width stands for: floor(width), at least 1 (a fractional width is the
/// aggregate of an oversubscribed tier, one cable).
uint64_t cables_of(double width);

/// Whether the link joins a memory pool (not a link of the fabric between units and switches).
bool to_memory_pool(const topology::Topology& topo, topology::LinkId link);

/// Per link of the machine, its class: links of one class are taken to slow the job alike when degraded.
/// A class is the link's model, the tiers at both ends (links from the nearest unit: 0 for a unit, 1 for
/// its switch, ...) and, at a unit end, the class of the lowest rank on it (class_of_rank; empty: the rank
/// itself).
std::vector<uint32_t> link_classes(const topology::Machine& machine,
                                   const std::vector<topology::NodeId>& unit_of_rank,
                                   const std::vector<uint32_t>& class_of_rank);

/// What failed links cut off: the units not joined to the part of the machine holding most of the job's
/// units (ties: the part found first, from the lowest node id), and the ranks on them or whose memory
/// pool no longer reaches that part.
struct CutOff {
  std::vector<uint64_t> ranks;
  std::vector<topology::NodeId> units;
};

/// With the links `down` out of service (and optical circuits not set up at the start), rank r on
/// unit_of_rank[r] using pool_of_rank[r] (empty: no pools): what is cut off. One breadth-first search over
/// the machine, O(nodes + links); memory pools are endpoints, never passed through.
CutOff cut_off(const topology::Machine& machine, const std::vector<topology::LinkId>& down,
               const std::vector<topology::NodeId>& unit_of_rank,
               const std::vector<topology::NodeId>& pool_of_rank);

}  // namespace zs::reliability
