// Single-switch domain generator.
#include "topology/single_switch_generator.hpp"

#include "topology/memory_pools.hpp"
#include "topology/switch_radix.hpp"

namespace zs::topology {

void generate_single_switch(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  auto units = params.integer("units", 1, 1 << 20);
  uint32_t unit_model = binder.unit_model(params, "unit_model");
  uint32_t link_model = binder.link_model(params, "link_model");
  NodeId sw = machine.topology.add_switch("switch", binder.optional_switch_model(params, "switch_model"));
  for (int64_t i = 0; i < units; ++i) {
    NodeId u = machine.topology.add_unit("unit" + std::to_string(i), unit_model);
    machine.topology.add_link(u, sw, link_model);
  }
  if (params.has("memory_pools")) {
    core::JsonObject pools = params.object("memory_pools");
    uint32_t model = binder.memory_model(pools, "model");
    auto count = pools.integer("count", 1, 1 << 16);
    pools.finish();
    for (int64_t i = 0; i < count; ++i) add_memory_pool(machine, "pool" + std::to_string(i), model, sw);
  } else {
    params.optional("memory_pools");
  }
  check_switch_radix(machine, params, "units");
}

}  // namespace zs::topology
