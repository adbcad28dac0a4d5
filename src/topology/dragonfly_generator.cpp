// Dragonfly generator.
#include "topology/dragonfly_generator.hpp"

#include <vector>

namespace zs::topology {

const core::ParamTable& dragonfly_params() {
  static const core::ParamTable table(
      "topology.dragonfly", "fully connected router groups joined pairwise by global links",
      {core::Param::integer("groups", 2, 1 << 16, "router groups (g)"),
       core::Param::integer("routers_per_group", 1, 1 << 12, "routers per group, fully connected (a)"),
       core::Param::integer("units_per_router", 1, 1 << 12, "compute units on each router (p)"),
       core::Param::integer("global_links_per_router", 1, 1 << 12,
                            "global links of each router (h); a x h must be at least g - 1"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::text("unit_link_model", "the link model from a unit to its router"),
       core::Param::text("local_link_model", "the link model between routers of a group"),
       core::Param::text("global_link_model", "the link model between groups")});
  return table;
}

void generate_dragonfly(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  const int64_t g = params.get<int64_t>("groups");
  const int64_t a = params.get<int64_t>("routers_per_group");
  const int64_t p = params.get<int64_t>("units_per_router");
  const int64_t h = params.get<int64_t>("global_links_per_router");
  if ((a * h) % (g - 1) != 0)
    throw params.error("global_links_per_router",
                       "routers_per_group x global_links_per_router = " + std::to_string(a * h) +
                           " must be a multiple of groups - 1 = " + std::to_string(g - 1));
  if (g * a * p > (int64_t(1) << 24)) throw params.error("groups", "more than 16,777,216 units");
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  const uint32_t unit_link = binder.link_model(params, "unit_link_model");
  const uint32_t local_link = binder.link_model(params, "local_link_model");
  const uint32_t global_link = binder.link_model(params, "global_link_model");

  auto& topo = machine.topology;
  std::vector<NodeId> routers;
  for (int64_t grp = 0; grp < g; ++grp)
    for (int64_t r = 0; r < a; ++r) {
      NodeId router = topo.add_switch("g" + std::to_string(grp) + "r" + std::to_string(r));
      routers.push_back(router);
      for (int64_t u = 0; u < p; ++u) {
        int64_t index = (grp * a + r) * p + u;
        topo.add_link(topo.add_unit("unit" + std::to_string(index), unit_model), router, unit_link);
      }
    }
  for (int64_t grp = 0; grp < g; ++grp)
    for (int64_t r1 = 0; r1 < a; ++r1)
      for (int64_t r2 = r1 + 1; r2 < a; ++r2)
        topo.add_link(routers[grp * a + r1], routers[grp * a + r2], local_link);
  // Global links: group i's k-th global port goes to the k-th group other than i (cyclically).
  const int64_t per_pair = a * h / (g - 1);
  std::vector<int64_t> next_port(g, 0);
  for (int64_t i = 0; i < g; ++i)
    for (int64_t j = i + 1; j < g; ++j)
      for (int64_t l = 0; l < per_pair; ++l) {
        NodeId ri = routers[i * a + (next_port[i]++ % a)];
        NodeId rj = routers[j * a + (next_port[j]++ % a)];
        topo.add_link(ri, rj, global_link);
      }
}

}  // namespace zs::topology
