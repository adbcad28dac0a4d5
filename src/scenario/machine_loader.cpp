// Reading a machine's parts: the models it binds, and the topology file those models are bound into.
#include "scenario/machine_loader.hpp"

#include <map>

#include "inventory/cluster_machine.hpp"

namespace zs::scenario {
namespace {

/// Reads `model` as a Model and keeps it, and its resolved configuration, under the binding `name`.
template <class Model>
void bind(core::JsonObject& model, const std::string& name, std::map<std::string, Model>& into,
          nlohmann::json& resolved) {
  auto m = Model::from_json(model);
  resolved[name] = m.to_json();
  into.emplace(name, std::move(m));
}

}  // namespace

BoundModels load_models(const core::FileSource& files, core::JsonObject& bindings) {
  BoundModels out;
  for (const auto& name : bindings.keys()) {
    std::string path;
    nlohmann::json doc = files.read_json_named(bindings, name, path);
    core::JsonObject model(doc, path, "");
    out.files[name] = path;
    std::string kind = model.string("kind");
    if (kind == "compute-unit") {
      bind<hw::ComputeUnitModel>(model, name, out.models.units, out.resolved);
    } else if (kind == "link") {
      bind<hw::LinkModel>(model, name, out.models.links, out.resolved);
    } else if (kind == "memory-pool") {
      bind<hw::MemoryPoolModel>(model, name, out.models.memories, out.resolved);
    } else if (kind == "switch") {
      bind<hw::SwitchModel>(model, name, out.models.switches, out.resolved);
    } else if (kind == "optical-circuit-switch") {
      bind<hw::OpticalSwitchModel>(model, name, out.models.optical_switches, out.resolved);
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
