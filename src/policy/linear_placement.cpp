// Linear placement.
#include "policy/linear_placement.hpp"

#include <limits>

#include "core/input_error.hpp"
#include "topology/memory_pools.hpp"

namespace zs::policy {

Placement LinearPlacement::place(const workload::Mesh& mesh, const topology::Machine& machine) const {
  const auto& units = machine.topology.units();
  if (mesh.size() > units.size())
    throw core::InputError("placement", "/policies/placement",
                           "the job's mesh has " + std::to_string(mesh.size()) + " ranks but machine \"" +
                               machine.name + "\" has " + std::to_string(units.size()) + " units");
  Placement p{std::vector<topology::NodeId>(units.begin(), units.begin() + long(mesh.size())), {}};
  if (!machine.topology.memories().empty()) {
    const auto nearest = topology::nearest_memory_pools(machine.topology);
    for (auto unit : p.unit_of_rank) {
      if (nearest[unit] == std::numeric_limits<topology::NodeId>::max())
        throw core::InputError(machine.name, "",
                               "unit " + machine.topology.node(unit).name + " reaches no memory pool");
      p.pool_of_rank.push_back(nearest[unit]);
    }
  }
  return p;
}

}  // namespace zs::policy
