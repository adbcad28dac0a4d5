// Generator of a single-switch domain: n units, each on its own link to one switch (an NVSwitch server).
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "units" (count), "unit_model" and "link_model" (bound model names), and optionally
/// "memory_pools": {"model": name, "count": n}, pools attached to the switch.
/// Every pair of units is two hops apart; each unit's link is uncontended by other pairs.
void generate_single_switch(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& single_switch_params();

}  // namespace zs::topology
