// Binding of topology model names to loaded models.
#include "topology/model_binder.hpp"

namespace zs::topology {
namespace {

template <class Model>
std::string bound_names(const std::map<std::string, Model>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k;
  return out.empty() ? "none" : out;
}

template <class Model>
uint32_t bind(core::ParamReader& params, std::string_view key, const std::map<std::string, Model>& bound,
              std::map<std::string, uint32_t>& index, std::vector<Model>& target, const char* what) {
  const auto found_name = params.find<std::string>(key);  // a required key, or an optional one set here
  if (!found_name) throw params.error("missing required key \"" + std::string(key) + "\"");
  const std::string& name = *found_name;
  if (auto it = index.find(name); it != index.end()) return it->second;
  auto found = bound.find(name);
  if (found == bound.end())
    throw params.error(key, std::string("the ") + what + " model \"" + name +
                                "\" is not bound by the scenario's /machine/models (bound " + what +
                                " models: " + bound_names(bound) + ")");
  auto id = static_cast<uint32_t>(target.size());
  target.push_back(found->second);
  index.emplace(name, id);
  return id;
}

}  // namespace

uint32_t ModelBinder::unit_model(core::ParamReader& params, std::string_view key) {
  return bind(params, key, models_.units, unit_index_, machine_.unit_models, "compute-unit");
}

uint32_t ModelBinder::link_model(core::ParamReader& params, std::string_view key) {
  return bind(params, key, models_.links, link_index_, machine_.link_models, "link");
}

uint32_t ModelBinder::memory_model(core::ParamReader& params, std::string_view key) {
  return bind(params, key, models_.memories, memory_index_, machine_.memory_models, "memory-pool");
}

uint32_t ModelBinder::switch_model(core::ParamReader& params, std::string_view key) {
  return bind(params, key, models_.switches, switch_index_, machine_.switch_models, "switch");
}

uint32_t ModelBinder::optional_switch_model(core::ParamReader& params, std::string_view key) {
  if (!params.has(key)) return kNoModel;
  return switch_model(params, key);
}

uint32_t ModelBinder::optical_switch_model(core::ParamReader& params, std::string_view key) {
  return bind(params, key, models_.optical_switches, optical_index_, machine_.optical_switch_models,
              "optical-circuit-switch");
}

uint32_t ModelBinder::circuit_link_model(uint32_t optical_switch_model) {
  if (auto it = circuit_link_index_.find(optical_switch_model); it != circuit_link_index_.end())
    return it->second;
  auto id = static_cast<uint32_t>(machine_.link_models.size());
  machine_.link_models.push_back(machine_.optical_switch_models.at(optical_switch_model).circuit_link());
  circuit_link_index_.emplace(optical_switch_model, id);
  return id;
}

}  // namespace zs::topology
