// Linear placement.
#include "policy/linear_placement.hpp"

#include "core/input_error.hpp"

namespace zs::policy {

Placement LinearPlacement::place(const workload::Mesh& mesh, const topology::Machine& machine) const {
  const auto& units = machine.topology.units();
  if (mesh.size() > units.size())
    throw core::InputError("placement", "/policies/placement",
                           "the job's mesh has " + std::to_string(mesh.size()) + " ranks but machine \"" +
                               machine.name + "\" has " + std::to_string(units.size()) +
                               " units");
  return Placement{std::vector<topology::NodeId>(units.begin(), units.begin() + long(mesh.size()))};
}

}  // namespace zs::policy
