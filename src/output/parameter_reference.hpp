// The parameter reference: `zettasim params` and docs/parameters.md, printed from the parameter tables.
#pragma once

#include <string>
#include <vector>

#include "core/param_table.hpp"

namespace zs::output {

/// One line per table: its type and its one-line doc.
std::string parameter_type_list(const std::vector<const core::ParamTable*>& tables);
/// One table in padded columns: parameter, unit, default, range, description.
std::string parameter_table_text(const core::ParamTable& table);
/// Every table as a Markdown reference (docs/parameters.md).
std::string parameter_reference_markdown(const std::vector<const core::ParamTable*>& tables);

}  // namespace zs::output
