// Fat-tree generator.
#include "topology/fat_tree_generator.hpp"

#include <string>
#include <vector>

namespace zs::topology {

const core::ParamTable& fat_tree_params() {
  static const core::ParamTable servers(
      "topology.fat-tree.servers", "servers with a scale-up switch each (NVLink through NVSwitch)",
      {core::Param::integer("units_per_server", 1, 1 << 10,
                            "units per server, in unit order: a divisor of level 1's units_per_switch"),
       core::Param::text("link_model", "the link model from a unit to its server's switch"),
       core::Param::text("switch_model", "the server switch's model; left out, an ideal switch").optional()});
  static const core::ParamTable level(
      "topology.fat-tree.level", "one switch level of a fat-tree",
      {core::Param::integer("units_per_switch", 1, int64_t(1) << 24,
                            "units one switch of this level serves: a multiple of the level below's; the top "
                            "level serves all"),
       core::Param::text("link_model", "the link model of the links into this level"),
       core::Param::number("oversubscription", 1.0, 1e6,
                           "downlink to uplink bandwidth of a switch of this level; 1 at the top")
           .or_default(1.0),
       core::Param::integer(
           "planes", 1, 1024,
           "switches of this level per group of units_per_switch, each node below linked to "
           "every one of them (a leaf-spine's spines): a connection takes one of the equal "
           "routes by hash, so connections can collide on a link (ECMP); 1: one switch whose "
           "links carry the group's whole bandwidth, spread perfectly")
           .or_default(1)});
  static const core::ParamTable table(
      "topology.fat-tree", "folded Clos of 1-3 switch levels with oversubscription per level",
      {core::Param::integer("units", 1, int64_t(1) << 24, "compute units"),
       core::Param::text("unit_model", "a compute-unit model bound in the machine's models"),
       core::Param::list("levels", level, "1 to 3 switch levels, bottom first"),
       core::Param::object("servers", servers,
                           "a scale-up switch per server besides the tree; left out, units reach each "
                           "other only through the tree")
           .optional()});
  return table;
}

namespace {

/// The "servers" part: a switch "server<s>" per `units_per_server` consecutive units, each unit linked
/// to it. The router prefers its wider links to the tree's between two units of one server.
void add_servers(core::ParamReader& params, ModelBinder& binder, int64_t units_per_leaf,
                 const std::vector<NodeId>& units, Machine& machine) {
  core::ParamReader servers = params.part("servers");
  const int64_t per_server = servers.get<int64_t>("units_per_server");
  if (units_per_leaf % per_server != 0)
    throw servers.error("units_per_server", std::to_string(per_server) + " does not divide level 1's " +
                                                std::to_string(units_per_leaf) + " units per switch");
  const uint32_t link = binder.link_model(servers, "link_model");
  const uint32_t server_switch = binder.optional_switch_model(servers, "switch_model");
  servers.finish();
  for (size_t first = 0; first < units.size(); first += size_t(per_server)) {
    NodeId sw = machine.topology.add_switch("server" + std::to_string(first / size_t(per_server)), server_switch);
    for (size_t u = first; u < first + size_t(per_server); ++u) machine.topology.add_link(units[u], sw, link);
  }
}

}  // namespace

void generate_fat_tree(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  const int64_t units = params.get<int64_t>("units");
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  std::vector<core::ParamReader> levels_json = params.parts("levels");
  if (levels_json.empty() || levels_json.size() > 3)
    throw params.error("levels", "expected an array of 1 to 3 switch levels, bottom first");

  struct Level {
    int64_t group;
    uint32_t link_model;
    double oversubscription;
    int64_t planes;
  };
  std::vector<Level> levels;
  for (size_t i = 0; i < levels_json.size(); ++i) {
    core::ParamReader& level = levels_json[i];
    Level l{level.get<int64_t>("units_per_switch"), binder.link_model(level, "link_model"),
            level.get<double>("oversubscription"), level.get<int64_t>("planes")};
    if (l.group > units)
      throw level.error("units_per_switch", "expected a whole number in [1, " + std::to_string(units) +
                                                "], got " + std::to_string(l.group));
    if (units % l.group != 0)
      throw level.error("units_per_switch",
                        std::to_string(l.group) + " does not divide the " + std::to_string(units) + " units");
    if (!levels.empty() && l.group % levels.back().group != 0)
      throw level.error("units_per_switch", "must be a multiple of the level below's (" +
                                                std::to_string(levels.back().group) + ")");
    if (i + 1 == levels_json.size()) {
      if (l.group != units)
        throw level.error("units_per_switch",
                          "the top level must serve all " + std::to_string(units) + " units");
      if (l.oversubscription != 1.0) throw level.error("oversubscription", "the top level has no uplinks");
    }
    level.finish();
    levels.push_back(l);
  }

  std::vector<NodeId> below;  // nodes of the level below, in order (a group's planes together)
  for (int64_t u = 0; u < units; ++u)
    below.push_back(machine.topology.add_unit("unit" + std::to_string(u), unit_model));
  if (params.has("servers")) add_servers(params, binder, levels.front().group, below, machine);
  // Bandwidth that one node of the level below sends up, B/s (units: one link of level 1's model).
  double up_bandwidth = machine.link_models[levels[0].link_model].bandwidth().value();
  int64_t below_group = 1, below_planes = 1;
  for (size_t k = 0; k < levels.size(); ++k) {
    const auto& level = levels[k];
    const int64_t children = level.group / below_group * below_planes;  // nodes below one group
    // Each child's uplink bandwidth split evenly over the group's planes.
    const double width =
        up_bandwidth / double(level.planes) / machine.link_models[level.link_model].bandwidth().value();
    std::vector<NodeId> current;
    for (int64_t s = 0; s < units / level.group; ++s)
      for (int64_t p = 0; p < level.planes; ++p) {
        std::string name = "l" + std::to_string(k + 1) + "s" + std::to_string(s);
        if (level.planes > 1) name += "p" + std::to_string(p);
        NodeId sw = machine.topology.add_switch(name);
        for (int64_t c = 0; c < children; ++c)
          machine.topology.add_link(below[s * children + c], sw, level.link_model, width);
        current.push_back(sw);
      }
    up_bandwidth = up_bandwidth * double(children) / level.oversubscription / double(level.planes);
    below = std::move(current);
    below_group = level.group;
    below_planes = level.planes;
  }
}

}  // namespace zs::topology
