// Generator of fat-trees / folded Clos networks of 1 to 3 switch levels, with oversubscription per level.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "units", "unit_model", and "levels", bottom first, each
///   {"units_per_switch": g, "link_model": name, "oversubscription": r (default 1)}.
/// A level-1 switch (ToR) serves g_1 units; a level-k switch serves g_k units (a multiple of g_{k-1});
/// the top level serves all units. Links into level 1 use its link model at width 1; the uplink of a
/// level-k switch has the bandwidth of its downlinks divided by its oversubscription r_k (r of the
/// top level must be 1). Optional "servers": {"units_per_server": n, "link_model": name, "switch_model":
/// name}: every n consecutive units also share a server's scale-up switch (NVLink through NVSwitch),
/// which the router takes between them when its links are the wider.
///
/// Each switch of this model stands for a whole non-blocking block of that tier (its spine planes
/// and ECMP paths merged): flows share the block's aggregate uplink bandwidth as if ECMP spread
/// them perfectly. Hop counts match the physical tree (2 per level between units); hash
/// collisions of real ECMP are not modelled.
void generate_fat_tree(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& fat_tree_params();

}  // namespace zs::topology
