// Which switch a unit reduces through and which domain (NVLink island, leaf switch) it belongs to.
#pragma once

#include <optional>

#include "topology/machine.hpp"

namespace zs::topology {

/// The switch next to `unit` that reduces data in the network (SHARP, NVLS), if any: among its
/// neighbours over enabled-at-start links, the lowest-numbered switch whose model has in-network
/// reduction.
std::optional<NodeId> reduction_switch(const Machine& machine, NodeId unit);

/// The switch that defines the unit's fast domain: the neighbour switch over the unit's widest link (the
/// NVLink switch of a server, or the leaf switch of a unit with one network link); ties go to the
/// lowest-numbered switch. None for a unit with no switch next to it (a torus node).
std::optional<NodeId> domain_switch(const Machine& machine, NodeId unit);

}  // namespace zs::topology
