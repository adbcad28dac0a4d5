// Explicit topology graphs: nodes and links listed one by one, for machines the generators do not cover.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "nodes": [{"name", "kind": "unit" | "switch" | "memory", "model" (units and
/// memories), "attach" (memories: the node the pool's ports connect to)}],
/// "links": [{"a", "b" (node names), "model", "width" (default 1)}]. Node names are unique; a link
/// naming a node that does not exist (dangling) or joining a node to itself is an error.
void generate_graph(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& graph_params();

}  // namespace zs::topology
