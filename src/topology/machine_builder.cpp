// Dispatch from a topology file to its generator.
#include "topology/machine_builder.hpp"

#include <functional>

#include "topology/single_switch_generator.hpp"

namespace zs::topology {
namespace {

using Generator = std::function<void(core::JsonObject&, ModelBinder&, Machine&)>;

struct GeneratorEntry {
  GeneratorInfo info;
  Generator generate;
};

/// The one list of built-in generators.
std::vector<GeneratorEntry> generator_table() {
  return {{{"single-switch", "n units, each on its own link to one switch (an NVLink/NVSwitch server)"},
           generate_single_switch}};
}

}  // namespace

std::vector<GeneratorInfo> builtin_generators() {
  std::vector<GeneratorInfo> out;
  for (const auto& e : generator_table()) out.push_back(e.info);
  return out;
}

Machine build_machine(core::JsonObject& json, const ModelSet& models) {
  if (json.string("kind") != "topology") throw json.error("kind", "expected \"topology\" for a topology file");
  Machine machine;
  machine.name = json.string("name");
  json.optional_string("description");
  machine.generator = json.string("generator");
  ModelBinder binder(models, machine);
  for (const auto& entry : generator_table()) {
    if (entry.info.name != machine.generator) continue;
    entry.generate(json, binder, machine);
    json.finish();
    return machine;
  }
  std::string known;
  for (const auto& e : generator_table()) known += (known.empty() ? "" : ", ") + e.info.name;
  throw json.error("generator", "unknown generator \"" + machine.generator + "\" (known: " + known + ")");
}

}  // namespace zs::topology
