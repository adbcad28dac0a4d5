// Generator of rail-optimized clusters: servers with an NVSwitch domain, GPU i of every server on rail switch
// i.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "servers", "units_per_server", "unit_model", "scale_up_link_model" (unit to its
/// server's switch), "nic_link_model" (unit to its rail switch), and optionally "spine":
/// {"link_model", "oversubscription" (default 1)}, one switch joining the rails whose uplink from
/// each rail carries the rail's NIC bandwidth / oversubscription. Without a spine, units on
/// different rails of different servers reach each other through a server's scale-up switch.
void generate_rail_optimized(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& rail_optimized_params();

}  // namespace zs::topology
