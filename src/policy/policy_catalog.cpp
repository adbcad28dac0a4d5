// Built-in policy list.
#include "policy/policy_catalog.hpp"

#include <functional>
#include <stdexcept>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/auto_collective.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/placement/file_placement.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/in_network_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "policy/placement/random_placement.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/topology_aware_placement.hpp"

namespace zs::policy {
namespace {

template <class Base>
struct Entry {
  PolicyInfo info;
  std::function<std::unique_ptr<Base>()> make;
};

std::vector<Entry<PlacementPolicy>> placement_table() {
  return {
      {{"placement", "linear", "rank r on the r-th unit in topology order"},
       [] { return std::make_unique<LinearPlacement>(); }},
      {{"placement", "random", "ranks on a random subset of the units, seeded by the scenario (a baseline)"},
       [] { return std::make_unique<RandomPlacement>(); }},
      {{"placement", "topology-aware",
        "the nesting of mesh axes, over the topology's or a locality order of units, with the fewest "
        "hop-bytes for the job's traffic (sampled estimate; linear unless 2% better)"},
       [] { return std::make_unique<TopologyAwarePlacement>(); }},
      {{"placement", "from-file", "an explicit rank-to-unit map: {\"name\": \"from-file\", \"map\": FILE}"},
       nullptr}};
}

std::vector<Entry<CollectivePolicy>> collective_table(const CollectiveOptions& options = {}) {
  return {
      {{"collective", "ring",
        "ring all-reduce, reduce-scatter and all-gather (bandwidth-optimal); direct all-to-all"},
       [] { return std::make_unique<RingCollective>(); }},
      {{"collective", "rings",
        "NCCL-style rings across NVLink domains or leaf switches: one per member of a domain, each "
        "crossing the domain boundaries from a different member; other groups use the ring; direct "
        "all-to-all"},
       [] { return std::make_unique<ChannelRingsCollective>(); }},
      {{"collective", "recursive",
        "recursive halving/doubling (Rabenseifner) all-reduce, reduce-scatter, all-gather; direct "
        "all-to-all"},
       [] { return std::make_unique<RecursiveCollective>(); }},
      {{"collective", "tree",
        "binomial-tree reduce, broadcast and all-reduce (latency-optimal); direct all-to-all"},
       [] { return std::make_unique<TreeCollective>(); }},
      {{"collective", "double-binary-tree",
        "NCCL's two complementary binary trees, each reducing and broadcasting half the buffer in pipelined "
        "chunks (all-reduce); ring reduce-scatter and all-gather; direct all-to-all"},
       [options] { return std::make_unique<DoubleBinaryTreeCollective>(options); }},
      {{"collective", "in-network",
        "SHARP/NVLS-style: members on one reducing switch send their buffer up once and get the result "
        "down once, in pipelined chunks; other groups use the ring; direct all-to-all"},
       [options] { return std::make_unique<InNetworkCollective>(options); }},
      {{"collective", "hierarchical",
        "inside each NVLink domain or leaf switch, then across domains (ring phases, pipelined in chunks); "
        "all-to-all "
        "aggregated inside the domain first; other groups use the ring / direct"},
       [options] { return std::make_unique<HierarchicalCollective>(options); }},
      {{"collective", "pairwise",
        "pairwise-exchange all-to-all (n-1 blocking send-receive steps, one peer each); ring for the "
        "reductions"},
       [] { return std::make_unique<PairwiseCollective>(); }},
      {{"collective", "auto",
        "per collective, the cheapest of ring, rings, recursive, tree, double binary tree, in-network "
        "and hierarchical by alpha-beta estimates on the members' routes (reported as auto:<algorithm>)"},
       [options] { return std::make_unique<AutoCollective>(options); }}};
}

template <class Base>
std::unique_ptr<Base> make_from(const std::vector<Entry<Base>>& table, const std::string& family,
                                const std::string& name) {
  std::string known;
  for (const auto& e : table) {
    if (e.info.name == name) return e.make();
    known += (known.empty() ? "" : ", ") + e.info.name;
  }
  throw std::out_of_range("unknown " + family + " policy \"" + name + "\" (known: " + known + ")");
}

}  // namespace

std::vector<PolicyInfo> builtin_policies() {
  std::vector<PolicyInfo> out;
  for (const auto& e : placement_table()) out.push_back(e.info);
  for (const auto& e : collective_table()) out.push_back(e.info);
  return out;
}

std::unique_ptr<PlacementPolicy> make_placement_policy(const std::string& name, const PlacementMap* map) {
  if (name == "from-file") {
    if (map == nullptr) throw std::invalid_argument("the from-file placement needs a map file");
    return std::make_unique<FilePlacement>(map->unit_names, map->file);
  }
  return make_from(placement_table(), "placement", name);
}

std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name,
                                                         const CollectiveOptions& options) {
  return make_from(collective_table(options), "collective", name);
}

}  // namespace zs::policy
