// Explicit graph topologies.
#include "topology/graph_generator.hpp"

#include <limits>
#include <map>

#include "topology/memory_pools.hpp"
#include "topology/optical_circuits.hpp"
#include "topology/switch_radix.hpp"

namespace zs::topology {
namespace {

const nlohmann::json& array_at(core::JsonObject& params, const char* key) {
  const auto& a = params.required(key);
  if (!a.is_array()) throw params.error(key, "expected an array");
  return a;
}

}  // namespace

void generate_graph(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  std::map<std::string, NodeId> by_name;
  const auto& nodes = array_at(params, "nodes");
  struct PendingPool {
    size_t index;
    std::string name;
    uint32_t model;
    std::string attach;
  };
  std::vector<PendingPool> pools;  // attached once every node exists
  for (size_t i = 0; i < nodes.size(); ++i) {
    core::JsonObject n = params.element("nodes", nodes[i], i);
    std::string name = n.string("name");
    if (by_name.count(name)) throw n.error("name", "duplicate node name \"" + name + "\"");
    std::string kind = n.string("kind");
    NodeId id;
    if (kind == "unit")
      id = machine.topology.add_unit(name, binder.unit_model(n, "model"));
    else if (kind == "switch")
      id = machine.topology.add_switch(name, binder.optional_switch_model(n, "model"));
    else if (kind == "memory") {
      pools.push_back({i, name, binder.memory_model(n, "model"), n.string("attach")});
      n.finish();
      by_name.emplace(name, std::numeric_limits<NodeId>::max());
      continue;
    } else
      throw n.error("kind", "expected \"unit\", \"switch\" or \"memory\", got \"" + kind + "\"");
    n.finish();
    by_name.emplace(name, id);
  }
  for (const auto& p : pools) {
    auto it = by_name.find(p.attach);
    if (it == by_name.end() || it->second == std::numeric_limits<NodeId>::max()) {
      core::JsonObject n = params.element("nodes", nodes[p.index], p.index);
      throw n.error("attach", "no unit or switch named \"" + p.attach + "\" to attach the pool to");
    }
    by_name[p.name] = add_memory_pool(machine, p.name, p.model, it->second);
  }
  const auto& links = array_at(params, "links");
  for (size_t i = 0; i < links.size(); ++i) {
    core::JsonObject l = params.element("links", links[i], i);
    auto endpoint = [&](const char* key) {
      std::string name = l.string(key);
      auto it = by_name.find(name);
      if (it == by_name.end()) throw l.error(key, "dangling link: no node named \"" + name + "\"");
      if (machine.topology.node(it->second).kind == NodeKind::kMemory)
        throw l.error(key, "memory pools connect through \"attach\", not links");
      return it->second;
    };
    NodeId a = endpoint("a"), b = endpoint("b");
    if (a == b) throw l.error("b", "a link must join two different nodes");
    uint32_t model = binder.link_model(l, "model");
    double width = l.number_or("width", 1.0, 1e-9, 1e9);
    l.finish();
    machine.topology.add_link(a, b, model, width);
  }
  if (machine.topology.units().empty()) throw params.error("nodes", "a machine needs at least one unit");
  read_optical_switches(params, "optical_switches", binder, machine, by_name);
  check_switch_radix(machine, params, "links");
}

}  // namespace zs::topology
