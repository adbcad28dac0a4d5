// Placement policies map each logical rank of the mesh to a physical compute unit.
#pragma once

#include <string_view>
#include <vector>

#include "topology/machine.hpp"
#include "workload/mesh.hpp"

namespace zs::policy {

/// unit_of_rank[r] is the unit (a node id of the machine's topology) that runs rank r;
/// pool_of_rank[r] the memory pool its memory moves use (empty when the machine has no pools).
struct Placement {
  std::vector<topology::NodeId> unit_of_rank;
  std::vector<topology::NodeId> pool_of_rank;
};

/// A pure function of (mesh, machine) to a placement: no clock, no globals, no simulator types.
class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual std::string_view name() const = 0;
  /// Throws core::InputError (file "placement") when the mesh does not fit the machine.
  virtual Placement place(const workload::Mesh& mesh, const topology::Machine& machine) const = 0;
};

}  // namespace zs::policy
