// Checks that no switch with a model has more links than ports.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// Ports a switch uses: each link of width w takes ceil(w) ports (at least one).
uint32_t switch_ports_used(const Topology& topo, NodeId sw);

/// Throws an InputError at `key` of `params` for the first switch whose links need more ports than
/// its model's radix, naming the switch, the ports needed and the radix.
void check_switch_radix(const Machine& machine, const core::ParamReader& params, std::string_view key);

}  // namespace zs::topology
