// Fat-tree generator.
#include "topology/fat_tree_generator.hpp"

#include <vector>

namespace zs::topology {

void generate_fat_tree(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  const int64_t units = params.integer("units", 1, int64_t(1) << 24);
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  const auto& levels_json = params.required("levels");
  if (!levels_json.is_array() || levels_json.empty() || levels_json.size() > 3)
    throw params.error("levels", "expected an array of 1 to 3 switch levels, bottom first");

  struct Level {
    int64_t group;
    uint32_t link_model;
    double oversubscription;
  };
  std::vector<Level> levels;
  for (size_t i = 0; i < levels_json.size(); ++i) {
    core::JsonObject level = params.element("levels", levels_json[i], i);
    Level l{level.integer("units_per_switch", 1, units), binder.link_model(level, "link_model"),
            level.number_or("oversubscription", 1.0, 1.0, 1e6)};
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

  std::vector<NodeId> below;  // nodes of the level below, in order
  for (int64_t u = 0; u < units; ++u)
    below.push_back(machine.topology.add_unit("unit" + std::to_string(u), unit_model));
  // Bandwidth that one node of the level below sends up, B/s (units: one link of level 1's model).
  double up_bandwidth = machine.link_models[levels[0].link_model].bandwidth().value();
  int64_t below_group = 1;
  for (size_t k = 0; k < levels.size(); ++k) {
    const auto& level = levels[k];
    const int64_t children = level.group / below_group;
    const double width = up_bandwidth / machine.link_models[level.link_model].bandwidth().value();
    std::vector<NodeId> current;
    for (int64_t s = 0; s < units / level.group; ++s) {
      NodeId sw = machine.topology.add_switch("l" + std::to_string(k + 1) + "s" + std::to_string(s));
      for (int64_t c = 0; c < children; ++c)
        machine.topology.add_link(below[s * children + c], sw, level.link_model, width);
      current.push_back(sw);
    }
    up_bandwidth = up_bandwidth * double(children) / level.oversubscription;
    below = std::move(current);
    below_group = level.group;
  }
}

}  // namespace zs::topology
