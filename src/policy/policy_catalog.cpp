// Built-in policy list.
#include "policy/policy_catalog.hpp"

#include <functional>
#include <stdexcept>

#include "policy/auto_collective.hpp"
#include "policy/file_placement.hpp"
#include "policy/linear_placement.hpp"
#include "policy/random_placement.hpp"
#include "policy/recursive_collective.hpp"
#include "policy/ring_collective.hpp"

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
      {{"placement", "from-file", "an explicit rank-to-unit map: {\"name\": \"from-file\", \"map\": FILE}"},
       nullptr}};
}

std::vector<Entry<CollectivePolicy>> collective_table() {
  return {
      {{"collective", "ring",
        "ring all-reduce, reduce-scatter and all-gather (bandwidth-optimal); direct all-to-all"},
       [] { return std::make_unique<RingCollective>(); }},
      {{"collective", "recursive",
        "recursive halving/doubling (Rabenseifner) all-reduce, reduce-scatter, all-gather; direct "
        "all-to-all"},
       [] { return std::make_unique<RecursiveCollective>(); }},
      {{"collective", "tree",
        "binomial-tree reduce, broadcast and all-reduce (latency-optimal); direct all-to-all"},
       [] { return std::make_unique<TreeCollective>(); }},
      {{"collective", "auto",
        "per collective, the cheapest of ring, recursive and tree by alpha-beta estimates on the members' "
        "routes (reported as auto:<algorithm>)"},
       [] { return std::make_unique<AutoCollective>(); }}};
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

std::unique_ptr<CollectivePolicy> make_collective_policy(const std::string& name) {
  return make_from(collective_table(), "collective", name);
}

}  // namespace zs::policy
