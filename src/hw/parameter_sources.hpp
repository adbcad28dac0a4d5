// Checks that a model file cites a source for every parameter it sets, and for nothing else.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/json_object.hpp"

namespace zs::hw {

/// Reads the "sources" object of a model file: parameter name (dotted, e.g. "matrix_peak.bf16")
/// to citation. Every name in `parameters` must have a non-empty citation, and every citation must
/// name one of `parameters`; otherwise an InputError names the file and path.
std::map<std::string, std::string> read_parameter_sources(core::JsonObject& model,
                                                          const std::vector<std::string>& parameters);

}  // namespace zs::hw
