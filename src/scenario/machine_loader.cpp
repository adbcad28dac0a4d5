// Reading a machine's parts: the models it binds, and the topology file those models are bound into.
#include "scenario/machine_loader.hpp"

#include <map>

#include "core/file_kind.hpp"
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
    const std::string named = model.string("kind");
    const auto kind = core::parse_file_kind(named);
    if (kind == core::FileKind::kComputeUnit) {
      bind<hw::ComputeUnitModel>(model, name, out.models.units, out.resolved);
    } else if (kind == core::FileKind::kLink) {
      bind<hw::LinkModel>(model, name, out.models.links, out.resolved);
    } else if (kind == core::FileKind::kMemoryPool) {
      bind<hw::MemoryPoolModel>(model, name, out.models.memories, out.resolved);
    } else if (kind == core::FileKind::kSwitch) {
      bind<hw::SwitchModel>(model, name, out.models.switches, out.resolved);
    } else if (kind == core::FileKind::kOpticalCircuitSwitch) {
      bind<hw::OpticalSwitchModel>(model, name, out.models.optical_switches, out.resolved);
    } else {
      throw model.error("kind",
                        "unknown model kind \"" + named +
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
  if (core::kind_of(doc) == core::FileKind::kClusterInventory)
    return inventory::build_cluster_machine(topology, files, models, max_nodes, resolved);
  return topology::build_machine(topology, models, generators, max_nodes, resolved);
}

}  // namespace zs::scenario
