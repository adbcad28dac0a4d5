// Linear placement.
#include "policy/placement/linear_placement.hpp"

namespace zs::policy {

Placement LinearPlacement::place(const PlacementRequest& request) const {
  require_enough_units(request.trace.mesh, request.machine);
  const auto& units = request.machine.topology.units();
  return place_on_units({units.begin(), units.begin() + long(request.trace.mesh.size())}, request.machine);
}

}  // namespace zs::policy
