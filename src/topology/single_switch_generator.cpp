// Single-switch domain generator.
#include "topology/single_switch_generator.hpp"

#include "topology/memory_pools.hpp"
#include "topology/switch_radix.hpp"

namespace zs::topology {

const core::ParamTable& single_switch_params() {
  static const core::ParamTable pools(
      "topology.single-switch.memory-pools", "memory pools on the switch",
      {core::Param::text("model", "a memory-pool model bound in the machine's models"),
       core::Param::integer("count", 1, 1 << 16, "pools, each on its own port")});
  static const core::ParamTable table(
      "topology.single-switch", "n units, each on its own link to one switch (an NVLink/NVSwitch domain)",
      {core::Param::integer("units", 1, 1 << 20, "compute units"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::text("link_model", "the link model of each unit's link to the switch"),
       core::Param::text("switch_model",
                         "a switch model (radix, in-network reduction); left out, an ideal switch")
           .optional(),
       core::Param::object("memory_pools", pools, "memory pools on the switch; left out, none").optional()});
  return table;
}

void generate_single_switch(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  auto units = params.get<int64_t>("units");
  uint32_t unit_model = binder.unit_model(params, "unit_model");
  uint32_t link_model = binder.link_model(params, "link_model");
  NodeId sw = machine.topology.add_switch("switch", binder.optional_switch_model(params, "switch_model"));
  for (int64_t i = 0; i < units; ++i) {
    NodeId u = machine.topology.add_unit("unit" + std::to_string(i), unit_model);
    machine.topology.add_link(u, sw, link_model);
  }
  if (params.has("memory_pools")) {
    core::ParamReader pools = params.part("memory_pools");
    uint32_t model = binder.memory_model(pools, "model");
    auto count = pools.get<int64_t>("count");
    pools.finish();
    for (int64_t i = 0; i < count; ++i) add_memory_pool(machine, "pool" + std::to_string(i), model, sw);
  }
  check_switch_radix(machine, params, "units");
}

}  // namespace zs::topology
