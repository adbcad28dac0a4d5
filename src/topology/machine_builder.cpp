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

TopologyGeneratorRegistry builtin_topology_generators() {
  TopologyGeneratorRegistry r("generator");
  r.add("single-switch", "n units, each on its own link to one switch (an NVLink/NVSwitch domain)",
        generate_single_switch);
  r.add("fat-tree", "folded Clos of 1-3 switch levels with oversubscription per level", generate_fat_tree);
  r.add("torus", "1-3 dimensional torus of directly linked units (TPU-style)", generate_torus);
  r.add("dragonfly", "fully connected router groups joined pairwise by global links", generate_dragonfly);
  r.add("rail-optimized", "servers with a scale-up switch each; unit i of every server on rail switch i",
        generate_rail_optimized);
  r.add("graph", "explicit nodes and links", generate_graph);
  r.add("disaggregated",
        "racks of units and CXL pools, pods on a fat-tree, pods joined by optical circuit switches",
        generate_disaggregated);
  return r;
}

Machine build_machine(core::JsonObject& json, const ModelSet& models,
                      const TopologyGeneratorRegistry& generators, uint64_t max_nodes) {
  if (json.string("kind") != "topology")
    throw json.error("kind", "expected \"topology\" for a topology file");
  Machine machine;
  machine.name = json.string("name");
  json.optional_string("description");
  machine.generator = json.string("generator");
  const TopologyGenerator* generate = nullptr;
  try {
    generate = &generators.at(machine.generator).make;
  } catch (const std::out_of_range& e) {
    throw json.error("generator", e.what());
  }
  ModelBinder binder(models, machine);
  machine.topology.set_node_limit(max_nodes);
  try {
    (*generate)(json, binder, machine);
  } catch (const MachineTooLarge& e) {
    throw core::InputError(json.file(), "", e.what());
  }
  read_power_domains(json, machine);
  json.finish();
  return machine;
}

}  // namespace zs::topology
