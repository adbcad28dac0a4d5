// Rail-optimized cluster generator.
#include "topology/rail_optimized_generator.hpp"

#include <vector>

namespace zs::topology {

const core::ParamTable& rail_optimized_params() {
  static const core::ParamTable spine(
      "topology.rail-optimized.spine", "one spine switch joining the rail switches",
      {core::Param::text("link_model", "the link model of the rail-to-spine links"),
       core::Param::number("oversubscription", 1.0, 1e6, "rail bandwidth to spine bandwidth")
           .or_default(1.0)});
  static const core::ParamTable table(
      "topology.rail-optimized",
      "servers with a scale-up switch each; unit i of every server on rail switch i",
      {core::Param::integer("servers", 1, 1 << 20, "servers"),
       core::Param::integer("units_per_server", 1, 1 << 10, "compute units per server, and rails"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::text("scale_up_link_model", "the link model from a unit to its server's switch"),
       core::Param::text("nic_link_model", "the link model from a unit to its rail switch"),
       core::Param::object("spine", spine,
                           "a spine joining the rails; left out, rails are joined only "
                           "through the servers")
           .optional()});
  return table;
}

void generate_rail_optimized(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  const int64_t servers = params.get<int64_t>("servers");
  const int64_t per_server = params.get<int64_t>("units_per_server");
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
    core::ParamReader spine = params.part("spine");
    const uint32_t model = binder.link_model(spine, "link_model");
    const double oversubscription = spine.get<double>("oversubscription");
    spine.finish();
    const double rail_bandwidth = machine.link_models[nic].bandwidth().value() * double(servers);
    const double width = rail_bandwidth / oversubscription / machine.link_models[model].bandwidth().value();
    NodeId top = topo.add_switch("spine");
    for (NodeId rail : rails) topo.add_link(rail, top, model, width);
  }
}

}  // namespace zs::topology
