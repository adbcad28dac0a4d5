// Rail-optimized cluster generator.
#include "topology/rail_optimized_generator.hpp"

#include <vector>

namespace zs::topology {

void generate_rail_optimized(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  const int64_t servers = params.integer("servers", 1, 1 << 20);
  const int64_t per_server = params.integer("units_per_server", 1, 1 << 10);
  if (servers * per_server > (int64_t(1) << 24)) throw params.error("servers", "more than 16,777,216 units");
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  const uint32_t scale_up = binder.link_model(params, "scale_up_link_model");
  const uint32_t nic = binder.link_model(params, "nic_link_model");
  auto& topo = machine.topology;

  std::vector<NodeId> rails;
  for (int64_t r = 0; r < per_server; ++r) rails.push_back(topo.add_switch("rail" + std::to_string(r)));
  for (int64_t s = 0; s < servers; ++s) {
    NodeId server_switch = topo.add_switch("server" + std::to_string(s));
    for (int64_t g = 0; g < per_server; ++g) {
      NodeId u = topo.add_unit("unit" + std::to_string(s * per_server + g), unit_model);
      topo.add_link(u, server_switch, scale_up);
      topo.add_link(u, rails[g], nic);
    }
  }
  if (params.has("spine")) {
    core::JsonObject spine = params.object("spine");
    const uint32_t model = binder.link_model(spine, "link_model");
    const double oversubscription = spine.number_or("oversubscription", 1.0, 1.0, 1e6);
    spine.finish();
    const double rail_bandwidth = machine.link_models[nic].bandwidth().value() * double(servers);
    const double width = rail_bandwidth / oversubscription / machine.link_models[model].bandwidth().value();
    NodeId top = topo.add_switch("spine");
    for (NodeId rail : rails) topo.add_link(rail, top, model, width);
  } else {
    params.optional("spine");
  }
}

}  // namespace zs::topology
