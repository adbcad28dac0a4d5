// Explicit graph topologies.
#include "topology/graph_generator.hpp"

#include <limits>
#include <map>

#include "topology/memory_pools.hpp"
#include "topology/optical_circuits.hpp"
#include "topology/switch_radix.hpp"

namespace zs::topology {
namespace {

const core::ParamTable& node_params() {
  static const core::ParamTable table(
      "topology.graph.node", "one node of an explicit graph",
      {core::Param::text("name", "the node's name, unique"),
       core::Param::choice("kind", node_kinds().names(), "what the node is").noun("node kind"),
       core::Param::text("model",
                         "the node's model bound in the machine's models: a compute-unit, switch or "
                         "memory-pool model; a switch may leave it out (an ideal switch)")
           .optional(),
       core::Param::text("attach", "memory only: the unit or switch the pool hangs off").optional()});
  return table;
}

const core::ParamTable& link_params() {
  static const core::ParamTable table(
      "topology.graph.link", "one link of an explicit graph",
      {core::Param::text("a", "the name of one end"), core::Param::text("b", "the name of the other end"),
       core::Param::text("model", "a link model bound in the machine's models"),
       core::Param::number("width", 1e-9, 1e9, "parallel links of the model it stands for").or_default(1.0)});
  return table;
}

}  // namespace

const core::ParamTable& graph_params() {
  static const core::ParamTable table("topology.graph", "explicit nodes and links",
                                      {core::Param::list("nodes", node_params(), "the nodes"),
                                       core::Param::list("links", link_params(), "the links"),
                                       core::Param::list("optical_switches", optical_switch_params(),
                                                         "optical circuit switches; left out, none")
                                           .optional()});
  return table;
}

void generate_graph(core::ParamReader& params, ModelBinder& binder, Machine& machine) {
  std::map<std::string, NodeId> by_name;
  std::vector<core::ParamReader> nodes = params.parts("nodes");
  struct PendingPool {
    size_t index;
    std::string name;
    uint32_t model;
    std::string attach;
  };
  std::vector<PendingPool> pools;  // attached once every node exists
  for (size_t i = 0; i < nodes.size(); ++i) {
    core::ParamReader& n = nodes[i];
    std::string name = n.get<std::string>("name");
    if (by_name.count(name)) throw n.error("name", "duplicate node name \"" + name + "\"");
    NodeId id = 0;
    switch (n.get_choice("kind", node_kinds())) {
      case NodeKind::kUnit:
        id = machine.topology.add_unit(name, binder.unit_model(n, "model"));
        break;
      case NodeKind::kSwitch:
        id = machine.topology.add_switch(name, binder.optional_switch_model(n, "model"));
        break;
      case NodeKind::kMemory:
        if (!n.has("attach"))
          throw n.error("missing required key \"attach\" (the unit or switch the pool hangs off)");
        pools.push_back({i, name, binder.memory_model(n, "model"), *n.find<std::string>("attach")});
        n.finish();
        by_name.emplace(name, std::numeric_limits<NodeId>::max());
        continue;
    }
    n.finish();
    by_name.emplace(name, id);
  }
  for (const auto& p : pools) {
    auto it = by_name.find(p.attach);
    if (it == by_name.end() || it->second == std::numeric_limits<NodeId>::max()) {
      throw nodes[p.index].error("attach",
                                 "no unit or switch named \"" + p.attach + "\" to attach the pool to");
    }
    by_name[p.name] = add_memory_pool(machine, p.name, p.model, it->second);
  }
  for (core::ParamReader& l : params.parts("links")) {
    auto endpoint = [&](const char* key) {
      std::string name = l.get<std::string>(key);
      auto it = by_name.find(name);
      if (it == by_name.end()) throw l.error(key, "dangling link: no node named \"" + name + "\"");
      if (machine.topology.node(it->second).kind == NodeKind::kMemory)
        throw l.error(key, "memory pools connect through \"attach\", not links");
      return it->second;
    };
    NodeId a = endpoint("a"), b = endpoint("b");
    if (a == b) throw l.error("b", "a link must join two different nodes");
    uint32_t model = binder.link_model(l, "model");
    double width = l.get<double>("width");
    l.finish();
    machine.topology.add_link(a, b, model, width);
  }
  if (machine.topology.units().empty()) throw params.error("nodes", "a machine needs at least one unit");
  read_optical_switches(params, "optical_switches", binder, machine, by_name);
  check_switch_radix(machine, params, "links");
}

}  // namespace zs::topology
