// The reports of `zettasim trace`: what an import of Chakra files assumed, and a trace's totals.
#pragma once

#include <string>

#include "chakra/chakra_import.hpp"
#include "workload/trace.hpp"

namespace zs::output {

/// One line: the Chakra version, ranks and nodes, and what was skipped or assumed.
std::string import_summary(const chakra::ChakraImportReport& r);

/// A trace's totals: mesh, communicators, roles, op counts, FLOPs, bytes per communicator, memory per role.
std::string trace_inspection(const workload::Trace& t);

}  // namespace zs::output
