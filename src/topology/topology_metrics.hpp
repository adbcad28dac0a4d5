// Structural figures of a machine: part counts, injection bandwidth, diameter, bisection bandwidth.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/units.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

struct Diameter {
  uint32_t hops = 0;     ///< longest shortest path between two units, in links
  bool exact = true;     ///< false when only some source units were searched (a lower bound)
  uint64_t sources = 0;  ///< units a breadth-first search started from
};

/// Breadth-first search from every unit, or from `max_sources` units spread evenly over the
/// topology order when there are more (then the result is a lower bound). Paths between two units of
/// one pod stay in the pod, as routes do.
Diameter unit_diameter(const Topology& topo, uint64_t max_sources = 4096);

/// Maximum flow, in one direction, from the first half of the units (topology order) to the
/// second half, with every link direction a capacity of its bandwidth: the bandwidth across the
/// cut that splits the units into those halves. For the generators' orderings (contiguous pods,
/// torus planes, groups) this is the bisection the closed forms describe; the true bisection is the
/// minimum over all balanced splits, which this does not search.
core::ByteRate half_split_bandwidth(const Machine& machine);

/// Sum of the bandwidths of a unit's links, B/s.
core::ByteRate injection_bandwidth(const Machine& machine, NodeId unit);

struct TopologySummary {
  uint64_t units = 0, switches = 0, memory_pools = 0, links = 0;
  std::map<std::string, uint64_t> units_by_model;
  core::ByteRate min_injection, max_injection;
  Diameter diameter;
  core::ByteRate bisection;  ///< half_split_bandwidth
};

TopologySummary summarize(const Machine& machine, uint64_t max_diameter_sources = 4096);

}  // namespace zs::topology
