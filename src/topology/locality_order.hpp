// An order of a machine's units that keeps units close in the network close in the order.
#pragma once

#include <vector>

#include "topology/machine.hpp"

namespace zs::topology {

/// The units grouped by their fast domain (the switch domain_switch names: an NVLink switch or a leaf
/// switch), domains in the order a breadth-first search from the first unit over the links up at the
/// start reaches their switch, and inside a domain in the order the search reaches the units. On a
/// tree-like network this lists each leaf's units together and the leaves under one spine together,
/// whatever order the topology file lists the units in. A unit with no switch next to it (a torus
/// node) is its own domain. Units the search cannot reach come last, in topology order.
std::vector<NodeId> locality_order(const Machine& machine);

}  // namespace zs::topology
