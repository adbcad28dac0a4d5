// Placement policies map each logical rank of the mesh to a physical compute unit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topology/machine.hpp"
#include "workload/trace.hpp"

namespace zs::policy {

/// unit_of_rank[r] is the unit (a node id of the machine's topology) that runs rank r;
/// pool_of_rank[r] the memory pool its memory moves use (empty when the machine has no pools).
struct Placement {
  std::vector<topology::NodeId> unit_of_rank;
  std::vector<topology::NodeId> pool_of_rank;
  std::string layout;  ///< what the policy chose and why, for reports; empty when there is nothing to say
};

/// What a placement policy decides from: the job (mesh, communicators, each role's traffic), the
/// machine, and a seed for randomized policies.
struct PlacementRequest {
  const workload::Trace& trace;
  const topology::Machine& machine;
  uint64_t seed = 1;
};

/// A pure function of a request to a placement: no clock, no globals, no simulator types.
class PlacementPolicy {
 public:
  virtual ~PlacementPolicy() = default;
  virtual std::string_view name() const = 0;
  /// Throws core::InputError when the mesh does not fit the machine.
  virtual Placement place(const PlacementRequest& request) const = 0;
  /// Re-placement after a failure: a new unit for each of `ranks` (whose units failed), taken from
  /// `idle` (units the job does not use, at least as many as `ranks`), given the units the job runs on
  /// now (`unit_of_rank`, the failed ones included). Returned in the order of `ranks`. The default puts
  /// each rank, in the given order, on the idle unit the fewest links from its failed unit (ties: the
  /// first in `idle`), so that its traffic stays as close to its peers' as the idle units allow.
  virtual std::vector<topology::NodeId> re_place(const topology::Machine& machine,
                                                 const std::vector<topology::NodeId>& unit_of_rank,
                                                 const std::vector<uint64_t>& ranks,
                                                 const std::vector<topology::NodeId>& idle) const;
};

/// Ranks on `units` (one per rank, in rank order), each using its unit's nearest memory pool.
/// Throws core::InputError when a unit reaches no pool on a machine that has pools.
Placement place_on_units(std::vector<topology::NodeId> units, const topology::Machine& machine);

/// Throws core::InputError (at /policies/placement) when the mesh has more ranks than the machine units.
void require_enough_units(const workload::Mesh& mesh, const topology::Machine& machine);

}  // namespace zs::policy
