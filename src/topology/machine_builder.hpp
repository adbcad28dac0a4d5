// Builds a Machine from a topology file by the generator it names (one explicit list of generators).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/json_object.hpp"
#include "core/registry.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// A topology generator: reads its parameters from the topology file and adds nodes and links.
using TopologyGenerator =
    std::function<void(core::JsonObject& topology_json, ModelBinder& models, Machine& out)>;
using TopologyGeneratorRegistry = core::Registry<TopologyGenerator>;

/// The generators a topology file may name in "generator" (family "generator"), one line each.
TopologyGeneratorRegistry builtin_topology_generators();

/// Reads a topology file ({"kind": "topology", "name", "generator", ...generator parameters}) and
/// builds the machine with the models bound in `models`, by the generator of `generators` it names.
/// A machine of more than `max_nodes` nodes is an input error, found before more are built.
Machine build_machine(core::JsonObject& topology_json, const ModelSet& models,
                      const TopologyGeneratorRegistry& generators = builtin_topology_generators(),
                      uint64_t max_nodes = kMaxMachineNodes);

}  // namespace zs::topology
