// Single-switch domain generator.
#include "topology/single_switch_generator.hpp"

namespace zs::topology {

void generate_single_switch(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  auto units = params.integer("units", 1, 1 << 20);
  uint32_t unit_model = binder.unit_model(params, "unit_model");
  uint32_t link_model = binder.link_model(params, "link_model");
  NodeId sw = machine.topology.add_switch("switch");
  for (int64_t i = 0; i < units; ++i) {
    NodeId u = machine.topology.add_unit("unit" + std::to_string(i), unit_model);
    machine.topology.add_link(u, sw, link_model);
  }
}

}  // namespace zs::topology
