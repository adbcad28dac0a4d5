// Every parameter table a scenario's files are read by, for `zettasim params` and docs/parameters.md.
#pragma once

#include <vector>

#include "core/param_table.hpp"
#include "scenario/catalog.hpp"

namespace zs::scenario {

/// The tables of every model kind, the failure-rate file, every topology and workload generator of
/// `catalog` (plugins' included), the transformer and expert-histogram files, then the scenario file with
/// its sections, the machine, recorded-workload and placement-map files and the sweep file, in that order; a
/// table's nested tables (a fat-tree level, the reliability section) follow it.
std::vector<const core::ParamTable*> parameter_tables(const Catalog& catalog);

}  // namespace zs::scenario
