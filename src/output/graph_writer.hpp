// Writes a machine's topology graph as Graphviz DOT or GraphML, for viewing.
#pragma once

#include <string>

#include "topology/machine.hpp"

namespace zs::output {

/// Undirected graph; nodes carry kind and model, edges bandwidth (B/s per direction), latency (s)
/// and width.
std::string to_dot(const topology::Machine& machine);
std::string to_graphml(const topology::Machine& machine);

}  // namespace zs::output
