// Dispatch from a topology file to its generator.
#include "topology/machine_builder.hpp"

#include <functional>
#include <stdexcept>

#include "core/file_kind.hpp"
#include "topology/disaggregated_generator.hpp"
#include "topology/dragonfly_generator.hpp"
#include "topology/fat_tree_generator.hpp"
#include "topology/graph_generator.hpp"
#include "topology/pods_generator.hpp"
#include "topology/power_domains.hpp"
#include "topology/rail_optimized_generator.hpp"
#include "topology/single_switch_generator.hpp"
#include "topology/torus_generator.hpp"

namespace zs::topology {

TopologyGeneratorRegistry builtin_topology_generators() {
  TopologyGeneratorRegistry r("generator");
  r.add("single-switch", "n units, each on its own link to one switch (an NVLink/NVSwitch domain)",
        generate_single_switch, &single_switch_params());
  r.add("fat-tree", "folded Clos of 1-3 switch levels with oversubscription per level", generate_fat_tree,
        &fat_tree_params());
  r.add("torus", "1-3 dimensional torus of directly linked units (TPU-style)", generate_torus,
        &torus_params());
  r.add("dragonfly", "fully connected router groups joined pairwise by global links", generate_dragonfly,
        &dragonfly_params());
  r.add("rail-optimized", "servers with a scale-up switch each; unit i of every server on rail switch i",
        generate_rail_optimized, &rail_optimized_params());
  r.add("graph", "explicit nodes and links", generate_graph, &graph_params());
  r.add("disaggregated",
        "racks of units and CXL pools, pods on a fat-tree, pods joined by optical circuit switches",
        generate_disaggregated, &disaggregated_params());
  r.add("pods", "copies of a pod of any built-in generator joined by a data-centre network", generate_pods,
        &pods_params());
  return r;
}

const core::ParamTable& topology_file_params() {
  static const core::ParamTable table(
      "topology", "the keys of every topology file; its generator's follow (topology.GENERATOR)",
      {core::Param::file_kind(core::FileKind::kTopology, "a topology file"),
       core::Param::text("name", "the machine's name, as reports print it"),
       core::Param::text("description", "one line: what is modelled").or_default(""),
       core::Param::text("generator", "the generator that builds the machine (zettasim list)"),
       core::Param::object("power_domains", power_domain_params(),
                           "units that lose power together; left out, none")
           .optional()});
  return table;
}

Machine build_machine(core::JsonObject& json, const ModelSet& models,
                      const TopologyGeneratorRegistry& generators, uint64_t max_nodes,
                      nlohmann::json* resolved) {
  core::JsonObject peek(json);  // the generator's table is needed before the file can be read by it
  core::ParamReader(topology_file_params(), peek).get<std::string>("kind");  // the kind first
  const std::string generator = peek.string("generator");
  const TopologyGeneratorRegistry::Entry* generate = nullptr;
  try {
    generate = &generators.at(generator);
  } catch (const std::out_of_range& e) {
    throw json.error("generator", e.what());
  }
  if (generate->params == nullptr)
    throw std::logic_error("topology generator \"" + generator + "\" declares no parameter table");
  const core::ParamTable table = topology_file_params().with(*generate->params);
  core::ParamReader r(table, json);
  r.get<std::string>("kind");
  Machine machine;
  machine.name = r.get<std::string>("name");
  r.get<std::string>("description");
  machine.generator = r.get<std::string>("generator");
  ModelBinder binder(models, machine);
  machine.topology.set_node_limit(max_nodes);
  try {
    generate->make(r, binder, machine);
  } catch (const MachineTooLarge& e) {
    throw core::InputError(json.file(), "", e.what());
  }
  read_power_domains(r, machine);
  r.finish();
  if (resolved) *resolved = r.resolved();
  return machine;
}

}  // namespace zs::topology
