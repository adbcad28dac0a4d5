// Generator of dragonflies: groups of fully connected routers, every pair of groups joined by global links.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "groups" g, "routers_per_group" a, "units_per_router" p, "global_links_per_router" h,
/// "unit_model", "unit_link_model", "local_link_model", "global_link_model". Routers of a group are
/// fully connected; a*h must be a multiple of g-1, and every pair of groups gets a*h/(g-1) global
/// links, spread round-robin over the routers of each group.
void generate_dragonfly(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& dragonfly_params();

}  // namespace zs::topology
