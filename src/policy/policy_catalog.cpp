// The built-in policies: one line per policy in its family's list.
#include "policy/policy_catalog.hpp"

#include <stdexcept>

#include "policy/collective/auto_collective.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/in_network_collective.hpp"
#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/protocol_choice.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "policy/placement/file_placement.hpp"
#include "policy/placement/linear_placement.hpp"
#include "policy/placement/random_placement.hpp"
#include "policy/placement/topology_aware_placement.hpp"
#include "policy/recovery/replace_recovery.hpp"
#include "policy/recovery/shrink_recovery.hpp"
#include "policy/recovery/wait_for_repair_recovery.hpp"

namespace zs::policy {
namespace {

/// A factory for a placement policy that takes no options.
template <class Policy>
PlacementFactory plain_placement() {
  return [](const PlacementMap*) { return std::make_unique<Policy>(); };
}

/// A factory for a collective policy that takes no options.
template <class Policy>
CollectiveFactory plain_collective() {
  return [](const CollectiveOptions&, const CollectiveRegistry&) { return std::make_unique<Policy>(); };
}

/// A factory for a collective policy built from the scenario's chunking options.
template <class Policy>
CollectiveFactory chunked() {
  return [](const CollectiveOptions& options, const CollectiveRegistry&) {
    return std::make_unique<Policy>(options);
  };
}

/// A factory for a recovery policy (they take no options).
template <class Policy>
RecoveryFactory plain_recovery() {
  return [] { return std::make_unique<Policy>(); };
}

/// The `auto` entry's factory: it chooses among every entry of the catalog it is made from.
std::unique_ptr<CollectivePolicy> choose_automatically(const CollectiveOptions& options,
                                                       const CollectiveRegistry& catalog) {
  return std::make_unique<AutoCollective>(options, AutoCollective::candidates_of(catalog, options));
}

std::unique_ptr<PlacementPolicy> from_file(const PlacementMap* map) {
  if (map == nullptr) throw std::invalid_argument("the from-file placement needs a map file");
  return std::make_unique<FilePlacement>(map->unit_names, map->file);
}

}  // namespace

PlacementRegistry builtin_placement_policies() {
  PlacementRegistry r(kPlacementFamily);
  r.add("linear", "rank r on the r-th unit in topology order", plain_placement<LinearPlacement>());
  r.add("random", "ranks on a random subset of the units, seeded by the scenario (a baseline)",
        plain_placement<RandomPlacement>());
  r.add("topology-aware",
        "the nesting of mesh axes, over the topology's or a locality order of units, with the fewest "
        "hop-bytes for the job's traffic (sampled estimate; linear unless 2% better)",
        plain_placement<TopologyAwarePlacement>());
  r.add("from-file", "an explicit rank-to-unit map: {\"name\": \"from-file\", \"map\": FILE}", from_file,
        &FilePlacement::params());
  return r;
}

CollectiveRegistry builtin_collective_policies() {
  // In the order `auto` prefers them on a tie.
  CollectiveRegistry r(kCollectiveFamily);
  r.add("ring", "ring all-reduce, reduce-scatter and all-gather (bandwidth-optimal); direct all-to-all",
        plain_collective<RingCollective>());
  r.add("recursive",
        "recursive halving/doubling (Rabenseifner) all-reduce, reduce-scatter, all-gather; direct all-to-all",
        plain_collective<RecursiveCollective>());
  r.add("tree", "binomial-tree reduce, broadcast and all-reduce (latency-optimal); direct all-to-all",
        plain_collective<TreeCollective>());
  r.add("double-binary-tree",
        "NCCL's two complementary binary trees, each reducing and broadcasting half the buffer in pipelined "
        "chunks (all-reduce); ring reduce-scatter and all-gather; direct all-to-all",
        chunked<DoubleBinaryTreeCollective>(), &CollectiveOptions::params());
  r.add("in-network",
        "SHARP/NVLS-style: members on one reducing switch send their buffer up once and get the result "
        "down once, in pipelined chunks; other groups use the ring; direct all-to-all",
        chunked<InNetworkCollective>(), &CollectiveOptions::params());
  r.add("rings",
        "NCCL-style rings across NVLink domains or leaf switches: one per member of a domain, each "
        "crossing the domain boundaries from a different member; other groups use the ring; direct "
        "all-to-all",
        plain_collective<ChannelRingsCollective>());
  r.add("hierarchical",
        "inside each NVLink domain or leaf switch, then across domains (ring phases, pipelined in chunks); "
        "all-to-all aggregated inside the domain first; other groups use the ring / direct",
        chunked<HierarchicalCollective>(), &CollectiveOptions::params());
  r.add("pairwise",
        "pairwise-exchange all-to-all (n-1 blocking send-receive steps, one peer each); ring for the "
        "reductions",
        plain_collective<PairwiseCollective>());
  r.add("auto",
        "per collective, the policy of the catalog (plugins included) with the least estimate of its own "
        "on the members' routes, under the scenario's protocol or, with protocol auto, under each; ties to "
        "the earliest listed (reported as auto:<algorithm>)",
        choose_automatically, &CollectiveOptions::params());
  return r;
}

CheckpointRuleRegistry builtin_checkpoint_rules() {
  CheckpointRuleRegistry r(kCheckpointRuleFamily);
  r.add("daly", "Daly 2006 (FGCS 22(3)): Young's optimum corrected to higher order (the default)",
        daly_interval);
  r.add("young", "Young 1974: sqrt(2 M C) of work between checkpoints (M: job MTBF, C: checkpoint cost)",
        young_interval);
  return r;
}

RecoveryRegistry builtin_recovery_policies() {
  RecoveryRegistry r(kRecoveryFamily);
  r.add("replace",
        "spares take the failed ranks (hot spares swapped in, or idle units they are re-placed onto); too "
        "few in hand: wait for the repair (the default)",
        plain_recovery<ReplaceRecovery>());
  r.add("shrink",
        "elastic: spares when enough are in hand, else go on without the failed ranks' data-parallel "
        "replicas until the repair (needs a dp axis of 2 or more); wait when none would be left",
        plain_recovery<ShrinkRecovery>());
  r.add("wait-for-repair", "never use spares: the job restarts once the failed part is repaired",
        plain_recovery<WaitForRepairRecovery>());
  return r;
}

PolicyCatalog PolicyCatalog::empty() {
  return {PlacementRegistry(kPlacementFamily), CollectiveRegistry(kCollectiveFamily),
          CheckpointRuleRegistry(kCheckpointRuleFamily), RecoveryRegistry(kRecoveryFamily)};
}

const LoadedPlugin* PolicyCatalog::plugin_from(const std::string& file) const {
  for (const auto& p : plugins)
    if (p.file == file) return &p;
  return nullptr;
}

std::vector<PolicyInfo> builtin_policies() {
  std::vector<PolicyInfo> out;
  const PlacementRegistry placements = builtin_placement_policies();
  const CollectiveRegistry collectives = builtin_collective_policies();
  for (const auto& e : placements.entries()) out.push_back({"placement", e.name, e.description});
  for (const auto& e : collectives.entries()) out.push_back({"collective", e.name, e.description});
  const RecoveryRegistry recoveries = builtin_recovery_policies();
  for (const auto& e : recoveries.entries()) out.push_back({"recovery", e.name, e.description});
  return out;
}

std::unique_ptr<PlacementPolicy> make_placement_policy(const PlacementRegistry& placements,
                                                       const std::string& name, const PlacementMap* map) {
  return placements.at(name).make(map);
}

std::unique_ptr<PlacementPolicy> make_placement_policy(const std::string& name, const PlacementMap* map) {
  return make_placement_policy(builtin_placement_policies(), name, map);
}

std::unique_ptr<CollectivePolicy> make_collective_policy(const CollectiveRegistry& collectives,
                                                         const std::string& name,
                                                         const CollectiveOptions& options) {
  auto policy = collectives.at(name).make(options, collectives);
  if (options.protocol == ProtocolSetting::kSimple) return policy;
  return std::make_unique<ProtocolChoice>(std::move(policy), options.protocol);
}

std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name,
                                                         const CollectiveOptions& options) {
  return make_collective_policy(builtin_collective_policies(), name, options);
}

}  // namespace zs::policy
