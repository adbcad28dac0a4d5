// Builds a Machine from a topology file by the generator it names (one explicit list of generators).
#pragma once

#include <string>
#include <vector>

#include "core/json_object.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// The generators a topology file may name in "generator", with a one-line description each.
struct GeneratorInfo {
  std::string name;
  std::string description;
};
std::vector<GeneratorInfo> builtin_generators();

/// Reads a topology file ({"kind": "topology", "name", "generator", ...generator parameters}) and
/// builds the machine with the models bound in `models`.
Machine build_machine(core::JsonObject& topology_json, const ModelSet& models);

}  // namespace zs::topology
