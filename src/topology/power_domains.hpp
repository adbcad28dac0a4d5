// Power domains: groups of racks fed by one power feed, declared in a topology file.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// Reads the optional key "power_domains": {"racks_per_domain": K} of a topology file and fills
/// machine.power_domains. A rack is the group of units sharing a domain switch (topology::domain_switch:
/// a rack's scale-up switch, a server's NVSwitch, a unit's only leaf); a unit with no switch next to it
/// (a torus node) is a rack of its own. Racks are taken in the order the topology lists their first unit,
/// K to a domain (the last one may hold fewer), named "power<k>". Without the key the machine has none.
void read_power_domains(core::ParamReader& topology, Machine& machine);
/// The "power_domains" object of a topology file.
const core::ParamTable& power_domain_params();

}  // namespace zs::topology
