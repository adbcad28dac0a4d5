// Every parameter table a scenario's files are read by, for `zettasim params` and docs/parameters.md.
#pragma once

#include <vector>

#include "core/param_table.hpp"
#include "scenario/catalog.hpp"

namespace zs::scenario {

/// The tables of every model kind, the failure-rate file, every topology generator of `catalog` (plugins'
/// included) and the transformer model file, in that order; a table's nested tables (a fat-tree level) follow
/// it.
std::vector<const core::ParamTable*> parameter_tables(const Catalog& catalog);

}  // namespace zs::scenario
