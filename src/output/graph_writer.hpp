// Writes a machine's topology graph as Graphviz DOT or GraphML, for viewing.
#pragma once

#include <string>

#include "topology/machine.hpp"

namespace zs::output {

/// Undirected graph; nodes carry kind and model, edges bandwidth (B/s per direction), latency (s)
/// and width.
std::string to_dot(const topology::Machine& machine);
std::string to_graphml(const topology::Machine& machine);

/// Writes the graph atomically to `path`, DOT or GraphML by its extension (.dot, .graphml); another
/// extension or a failure to write is a core::InputError naming the path.
void write_graph_file(const topology::Machine& machine, const std::string& path);

}  // namespace zs::output
