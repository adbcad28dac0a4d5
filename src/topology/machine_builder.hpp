// Builds a Machine from a topology file by the generator it names (one explicit list of generators).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/registry.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// A topology generator: reads its keys (its registry entry's table, type "topology.NAME"; a topology
/// file holds topology_file_params()'s too) and adds nodes and links.
using TopologyGenerator = std::function<void(core::ParamReader& params, ModelBinder& models, Machine& out)>;
using TopologyGeneratorRegistry = core::Registry<TopologyGenerator>;

/// The generators a topology file may name in "generator" (family "generator"), one line each.
TopologyGeneratorRegistry builtin_topology_generators();

/// The keys every topology file has, whatever its generator: kind, name, description, generator and
/// power_domains.
const core::ParamTable& topology_file_params();

/// Reads a topology file ({"kind": "topology", "name", "generator", ...generator parameters}) and
/// builds the machine with the models bound in `models`, by the generator of `generators` it names.
/// A machine of more than `max_nodes` nodes is an input error, found before more are built.
/// `resolved`, when given, receives the file as read: every key, defaults filled in (config.json).
Machine build_machine(core::JsonObject& topology_json, const ModelSet& models,
                      const TopologyGeneratorRegistry& generators = builtin_topology_generators(),
                      uint64_t max_nodes = kMaxMachineNodes, nlohmann::json* resolved = nullptr);

}  // namespace zs::topology
