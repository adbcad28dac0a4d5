// Generator of a single-switch domain: n units, each on its own link to one switch (an NVSwitch server).
#pragma once

#include "core/json_object.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "units" (count), "unit_model" and "link_model" (bound model names), and optionally
/// "memory_pools": {"model": name, "count": n}, pools attached to the switch.
/// Every pair of units is two hops apart; each unit's link is uncontended by other pairs.
void generate_single_switch(core::JsonObject& params, ModelBinder& binder, Machine& machine);

}  // namespace zs::topology
