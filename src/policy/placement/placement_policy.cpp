// Shared steps of placement policies: fitting check, memory pool assignment.
#include "policy/placement/placement_policy.hpp"

#include <limits>
#include <stdexcept>

#include "core/input_error.hpp"
#include "topology/hop_distances.hpp"
#include "topology/memory_pools.hpp"

namespace zs::policy {

void require_enough_units(const workload::Mesh& mesh, const topology::Machine& machine) {
  if (mesh.size() > machine.topology.units().size())
    throw core::InputError("placement", "/policies/placement",
                           "the job's mesh has " + std::to_string(mesh.size()) + " ranks but machine \"" +
                               machine.name + "\" has " + std::to_string(machine.topology.units().size()) +
                               " units");
}

std::vector<topology::NodeId> PlacementPolicy::re_place(const topology::Machine& machine,
                                                        const std::vector<topology::NodeId>& unit_of_rank,
                                                        const std::vector<uint64_t>& ranks,
                                                        const std::vector<topology::NodeId>& idle) const {
  if (idle.size() < ranks.size())
    throw std::invalid_argument("re-placement of " + std::to_string(ranks.size()) + " ranks on " +
                                std::to_string(idle.size()) + " idle units");
  std::vector<bool> taken(idle.size(), false);
  std::vector<topology::NodeId> out;
  for (uint64_t rank : ranks) {
    const auto hops = topology::hops_from(machine, unit_of_rank.at(rank));
    size_t best = idle.size();
    for (size_t i = 0; i < idle.size(); ++i)
      if (!taken[i] && (best == idle.size() || hops[idle[i]] < hops[idle[best]])) best = i;
    taken[best] = true;
    out.push_back(idle[best]);
  }
  return out;
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
