// The reports of `zettasim trace`: what an import of Chakra files assumed, and a trace's totals.
#pragma once

#include <string>

#include "chakra/chakra_import.hpp"
#include "workload/trace.hpp"

namespace zs::output {

/// One line: the Chakra version, ranks and nodes, and what was skipped or assumed.
std::string import_summary(const chakra::ChakraImportReport& r);

/// A trace's totals: mesh, communicators, roles, op counts, FLOPs, bytes and calls per communicator,
/// memory per role. `imported`: the report of the Chakra import the trace came from, if any; a trace from
/// another tool states no model FLOPs or tokens, and those are printed as unknown.
std::string trace_inspection(const workload::Trace& t, const chakra::ChakraImportReport* imported = nullptr);

}  // namespace zs::output
