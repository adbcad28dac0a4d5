// Example placement plugin: tensor-parallel groups packed into one fast domain (NVLink server) each.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "policy/plugin_api.hpp"
#include "topology/unit_domains.hpp"

namespace {

using zs::policy::Placement;
using zs::policy::PlacementRequest;
using zs::topology::NodeId;

/// The machine's units grouped by fast domain (the switch over each unit's widest link), domains in the
/// order of their first unit, units in topology order inside each.
std::vector<NodeId> units_by_domain(const zs::topology::Machine& machine) {
  std::vector<NodeId> domains;  // first-seen order
  std::map<NodeId, std::vector<NodeId>> members;
  for (NodeId unit : machine.topology.units()) {
    const NodeId domain = zs::topology::domain_switch(machine, unit).value_or(unit);
    if (members[domain].empty()) domains.push_back(domain);
    members[domain].push_back(unit);
  }
  std::vector<NodeId> out;
  for (NodeId d : domains) out.insert(out.end(), members[d].begin(), members[d].end());
  return out;
}

/// Ranks in mesh order (the last axis, tensor parallel in Megatron's [pp, dp, tp], fastest) over the units
/// grouped by domain: a tensor-parallel group of up to a domain's size shares one server.
class DomainPackedPlacement : public zs::policy::PlacementPolicy {
 public:
  std::string_view name() const override { return "domain-packed"; }

  Placement place(const PlacementRequest& request) const override {
    const auto& mesh = request.trace.mesh;
    zs::policy::require_enough_units(mesh, request.machine);
    const std::vector<NodeId> units = units_by_domain(request.machine);
    std::vector<NodeId> unit_of_rank(mesh.size());
    for (uint64_t rank = 0; rank < mesh.size(); ++rank) unit_of_rank[rank] = units[slot(mesh, rank)];
    Placement p = zs::policy::place_on_units(std::move(unit_of_rank), request.machine);
    p.layout = "ranks in mesh order over units grouped by NVLink domain";
    return p;
  }

 private:
  /// The unit slot of `rank`: its own index, or, in the scattered build, the index with the last axis
  /// made the slowest (so that the members of one tensor-parallel group land units apart).
  static uint64_t slot(const zs::workload::Mesh& mesh, uint64_t rank) {
#ifdef EXAMPLE_SCATTER_TENSOR_PARALLEL
    const size_t last = mesh.axes().size() - 1;
    const uint64_t groups = mesh.size() / mesh.axes()[last].size;
    return uint64_t(mesh.coordinate(rank, last)) * groups + mesh.group_index(rank, last);
#else
    (void)mesh;
    return rank;
#endif
  }
};

void add_policies(zs::policy::PolicyCatalog& catalog) {
  catalog.placement.add(
      "domain-packed", "ranks in mesh order over units grouped by NVLink domain (example plugin)",
      [](const zs::policy::PlacementMap*) { return std::make_unique<DomainPackedPlacement>(); });
}

}  // namespace

ZETTASIM_PLUGIN("example-placement", add_policies)
