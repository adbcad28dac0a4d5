// Reading a machine's parts: the models it binds, and the topology file those models are bound into.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "topology/machine.hpp"
#include "topology/machine_builder.hpp"
#include "topology/model_binder.hpp"

namespace zs::scenario {

/// The models a machine file binds, and each one's resolved configuration under its binding name.
struct BoundModels {
  topology::ModelSet models;
  nlohmann::json resolved = nlohmann::json::object();
  std::map<std::string, std::string> files;  ///< each binding's model file, resolved
};

/// Reads every model `bindings` names (binding name -> model file, relative to the bindings' file). Throws
/// core::InputError naming the model file and key for a file that is missing or that its reader refuses,
/// and the binding for an unknown model kind.
BoundModels load_models(const core::FileSource& files, core::JsonObject& bindings);

/// Builds the machine of the topology file `path`, already parsed into `doc`: a generator, an explicit
/// graph or a cluster inventory, its parts bound to `models`. `resolved` (optional) receives the topology's
/// resolved configuration. Throws core::InputError naming the file and JSON path, also for a machine of
/// more than `max_nodes` nodes.
topology::Machine build_topology_file(const core::FileSource& files, const nlohmann::json& doc,
                                      const std::string& path, const topology::ModelSet& models,
                                      const topology::TopologyGeneratorRegistry& generators,
                                      uint64_t max_nodes, nlohmann::json* resolved = nullptr);

}  // namespace zs::scenario
