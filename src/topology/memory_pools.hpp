// Attaching memory pools to a fabric, and finding the pool nearest to a unit.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/machine.hpp"

namespace zs::topology {

/// Adds a pool node using memory model `model` and joins it to `attach_to` with one link of width
/// ports x port bandwidth and latency = the pool's load latency, so that all of the pool's traffic
/// shares its ports and every access pays the load latency once.
NodeId add_memory_pool(Machine& machine, std::string name, uint32_t model, NodeId attach_to);

/// The pool with the fewest hops from `unit` (lowest node id on ties), or nullopt without pools.
/// Costs one breadth-first search: for many units use nearest_memory_pools.
std::optional<NodeId> nearest_memory_pool(const Topology& topo, NodeId unit);

/// For every node, the pool with the fewest hops from it (lowest node id on ties), from one
/// breadth-first search started at all pools at once (linear in the machine's size); empty without
/// pools. Routes do not pass through other pools.
std::vector<NodeId> nearest_memory_pools(const Topology& topo);

}  // namespace zs::topology
