// Reading a machine's parts: the models it binds, and the topology file those models are bound into.
#include "scenario/machine_loader.hpp"

#include "inventory/cluster_machine.hpp"

namespace zs::scenario {

BoundModels load_models(const core::FileSource& files, core::JsonObject& bindings) {
  BoundModels out;
  for (const auto& name : bindings.keys()) {
    std::string path;
    nlohmann::json doc = files.read_json_named(bindings, name, path);
    core::JsonObject model(doc, path, "");
    std::string kind = model.string("kind");
    if (kind == "compute-unit") {
      auto m = hw::ComputeUnitModel::from_json(model);
      out.resolved[name] = m.to_json();
      out.models.units.emplace(name, std::move(m));
    } else if (kind == "link") {
      auto m = hw::LinkModel::from_json(model);
      out.resolved[name] = m.to_json();
      out.models.links.emplace(name, std::move(m));
    } else if (kind == "memory-pool") {
      auto m = hw::MemoryPoolModel::from_json(model);
      out.resolved[name] = m.to_json();
      out.models.memories.emplace(name, std::move(m));
    } else if (kind == "switch") {
      auto m = hw::SwitchModel::from_json(model);
      out.resolved[name] = m.to_json();
      out.models.switches.emplace(name, std::move(m));
    } else if (kind == "optical-circuit-switch") {
      auto m = hw::OpticalSwitchModel::from_json(model);
      out.resolved[name] = m.to_json();
      out.models.optical_switches.emplace(name, std::move(m));
    } else {
      throw model.error("kind",
                        "unknown model kind \"" + kind +
                            "\" (known: compute-unit, link, memory-pool, switch, optical-circuit-switch)");
    }
  }
  bindings.finish();
  return out;
}

topology::Machine build_topology_file(const core::FileSource& files, const nlohmann::json& doc,
                                      const std::string& path, const topology::ModelSet& models,
                                      const topology::TopologyGeneratorRegistry& generators,
                                      uint64_t max_nodes, nlohmann::json* resolved) {
  core::JsonObject topology(doc, path, "");
  const auto kind = doc.is_object() ? doc.find("kind") : doc.end();
  if (doc.is_object() && kind != doc.end() && kind->is_string() && *kind == "cluster-inventory")
    return inventory::build_cluster_machine(topology, files, models, max_nodes, resolved);
  return topology::build_machine(topology, models, generators, max_nodes, resolved);
}

}  // namespace zs::scenario
