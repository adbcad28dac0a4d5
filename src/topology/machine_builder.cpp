// Dispatch from a topology file to its generator.
#include "topology/machine_builder.hpp"

#include <functional>

#include "topology/disaggregated_generator.hpp"
#include "topology/dragonfly_generator.hpp"
#include "topology/fat_tree_generator.hpp"
#include "topology/graph_generator.hpp"
#include "topology/power_domains.hpp"
#include "topology/rail_optimized_generator.hpp"
#include "topology/single_switch_generator.hpp"
#include "topology/torus_generator.hpp"

namespace zs::topology {
namespace {

using Generator = std::function<void(core::JsonObject&, ModelBinder&, Machine&)>;

struct GeneratorEntry {
  GeneratorInfo info;
  Generator generate;
};

/// The one list of built-in generators.
std::vector<GeneratorEntry> generator_table() {
  return {
      {{"single-switch", "n units, each on its own link to one switch (an NVLink/NVSwitch domain)"},
       generate_single_switch},
      {{"fat-tree", "folded Clos of 1-3 switch levels with oversubscription per level"}, generate_fat_tree},
      {{"torus", "1-3 dimensional torus of directly linked units (TPU-style)"}, generate_torus},
      {{"dragonfly", "fully connected router groups joined pairwise by global links"}, generate_dragonfly},
      {{"rail-optimized", "servers with a scale-up switch each; unit i of every server on rail switch i"},
       generate_rail_optimized},
      {{"graph", "explicit nodes and links"}, generate_graph},
      {{"disaggregated",
        "racks of units and CXL pools, pods on a fat-tree, pods joined by optical circuit switches"},
       generate_disaggregated},
  };
}

}  // namespace

std::vector<GeneratorInfo> builtin_generators() {
  std::vector<GeneratorInfo> out;
  for (const auto& e : generator_table()) out.push_back(e.info);
  return out;
}

Machine build_machine(core::JsonObject& json, const ModelSet& models) {
  if (json.string("kind") != "topology")
    throw json.error("kind", "expected \"topology\" for a topology file");
  Machine machine;
  machine.name = json.string("name");
  json.optional_string("description");
  machine.generator = json.string("generator");
  ModelBinder binder(models, machine);
  for (const auto& entry : generator_table()) {
    if (entry.info.name != machine.generator) continue;
    entry.generate(json, binder, machine);
    read_power_domains(json, machine);
    json.finish();
    return machine;
  }
  std::string known;
  for (const auto& e : generator_table()) known += (known.empty() ? "" : ", ") + e.info.name;
  throw json.error("generator", "unknown generator \"" + machine.generator + "\" (known: " + known + ")");
}

}  // namespace zs::topology
