// Random placement.
#include "policy/placement/random_placement.hpp"

#include <utility>

namespace zs::policy {

Placement RandomPlacement::place(const PlacementRequest& request) const {
  require_enough_units(request.trace.mesh, request.machine);
  std::vector<topology::NodeId> units = request.machine.topology.units();
  uint64_t state = request.seed ^ 0x5DEECE66Dull;
  auto next = [&state] {  // SplitMix64
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  const size_t n = request.trace.mesh.size();
  for (size_t i = 0; i < n; ++i) {  // the first n places of a Fisher-Yates shuffle
    const size_t j = i + static_cast<size_t>(next() % (units.size() - i));
    std::swap(units[i], units[j]);
  }
  units.resize(n);
  return place_on_units(std::move(units), request.machine);
}

}  // namespace zs::policy
