// Shared steps of placement policies: fitting check, memory pool assignment.
#include "policy/placement_policy.hpp"

#include <limits>

#include "core/input_error.hpp"
#include "topology/memory_pools.hpp"

namespace zs::policy {

void require_enough_units(const workload::Mesh& mesh, const topology::Machine& machine) {
  if (mesh.size() > machine.topology.units().size())
    throw core::InputError("placement", "/policies/placement",
                           "the job's mesh has " + std::to_string(mesh.size()) + " ranks but machine \"" +
                               machine.name + "\" has " + std::to_string(machine.topology.units().size()) +
                               " units");
}

Placement place_on_units(std::vector<topology::NodeId> units, const topology::Machine& machine) {
  Placement p{std::move(units), {}, {}};
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
