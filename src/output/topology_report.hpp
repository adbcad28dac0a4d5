// The report of `zettasim topo`: a machine's part counts, injection bandwidth, diameter and bisection.
#pragma once

#include <string>

#include "topology/machine.hpp"
#include "topology/topology_metrics.hpp"

namespace zs::output {

/// `file` is the machine or scenario file as the user named it.
std::string topology_report(const topology::Machine& m, const std::string& file,
                            const topology::TopologySummary& s);

}  // namespace zs::output
