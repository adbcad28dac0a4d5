// Writes a machine's topology graph as Graphviz DOT or GraphML, for viewing.
#pragma once

#include <string>

#include "core/output_file.hpp"
#include "topology/machine.hpp"

namespace zs::output {

/// Undirected graph; nodes carry kind and model, edges bandwidth (B/s per direction), latency (s)
/// and width.
std::string to_dot(const topology::Machine& machine);
std::string to_graphml(const topology::Machine& machine);

/// Writes the graph to `file` under the output-file rule (core::write_output_file), DOT or GraphML by its
/// extension (.dot, .graphml); another extension, a refusal or a failure to write is a core::InputError
/// naming `file.option`.
void write_graph_file(const topology::Machine& machine, const core::OutputFile& file);

}  // namespace zs::output
