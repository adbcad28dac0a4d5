// Placement from an explicit map.
#include "policy/placement/file_placement.hpp"

#include <unordered_map>

#include "core/input_error.hpp"

namespace zs::policy {

const core::ParamTable& FilePlacement::params() {
  static const core::ParamTable table(
      "placement.from-file", "an explicit rank-to-unit map",
      {core::Param::text("map", "a placement map file (type placement-map), relative to the scenario file")});
  return table;
}

Placement FilePlacement::place(const PlacementRequest& request) const {
  const auto& topo = request.machine.topology;
  if (unit_names_.size() != request.trace.mesh.size())
    throw core::InputError(file_, "/units",
                           "the map places " + std::to_string(unit_names_.size()) +
                               " ranks but the job has " + std::to_string(request.trace.mesh.size()));
  std::unordered_map<std::string, topology::NodeId> unit_by_name;
  for (auto u : topo.units()) unit_by_name.emplace(topo.node(u).name, u);
  std::unordered_map<topology::NodeId, size_t> rank_of_unit;
  std::vector<topology::NodeId> units;
  for (size_t r = 0; r < unit_names_.size(); ++r) {
    auto found = unit_by_name.find(unit_names_[r]);
    const std::string at = "/units/" + std::to_string(r);
    if (found == unit_by_name.end())
      throw core::InputError(
          file_, at,
          "\"" + unit_names_[r] + "\" is not a compute unit of machine \"" + request.machine.name + "\"");
    auto [it, fresh] = rank_of_unit.emplace(found->second, r);
    if (!fresh)
      throw core::InputError(
          file_, at, "unit \"" + unit_names_[r] + "\" already runs rank " + std::to_string(it->second));
    units.push_back(found->second);
  }
  return place_on_units(std::move(units), request.machine);
}

}  // namespace zs::policy
