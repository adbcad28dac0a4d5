// Where ranks keep their memory-pool data while pools are out of service: the nearest healthy pools with
// room.
#pragma once

#include <optional>
#include <vector>

#include "topology/machine.hpp"

namespace zs::reliability {

/// The machine's other memory pools in order of links from pool `from` (ties: lowest node id), by one
/// breadth-first search over the links active at the start that passes through switches and units but
/// never through a pool.
std::vector<topology::NodeId> pools_by_distance(const topology::Machine& machine, topology::NodeId from);

/// With the pools `down` out of service, where each rank keeps its data: rank r keeps bytes_of_rank[r] B
/// in pool_of_rank[r]; the ranks of a down pool move, in rank order, each to the first pool in
/// pools_by_distance(its pool) that is up and still has room for it (its capacity less what the ranks on
/// it keep). nullopt when a rank finds none.
std::optional<std::vector<topology::NodeId>> pools_without(const topology::Machine& machine,
                                                           const std::vector<topology::NodeId>& pool_of_rank,
                                                           const std::vector<double>& bytes_of_rank,
                                                           const std::vector<topology::NodeId>& down);

}  // namespace zs::reliability
