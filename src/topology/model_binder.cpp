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
uint32_t bind(core::JsonObject& json, std::string_view key, const std::map<std::string, Model>& bound,
              std::map<std::string, uint32_t>& index, std::vector<Model>& target, const char* what) {
  std::string name = json.string(key);
  if (auto it = index.find(name); it != index.end()) return it->second;
  auto found = bound.find(name);
  if (found == bound.end())
    throw json.error(key, std::string("the ") + what + " model \"" + name +
                              "\" is not bound by the scenario's /machine/models (bound " + what +
                              " models: " + bound_names(bound) + ")");
  auto id = static_cast<uint32_t>(target.size());
  target.push_back(found->second);
  index.emplace(name, id);
  return id;
}

}  // namespace

uint32_t ModelBinder::unit_model(core::JsonObject& json, std::string_view key) {
  return bind(json, key, models_.units, unit_index_, machine_.unit_models, "compute-unit");
}

uint32_t ModelBinder::link_model(core::JsonObject& json, std::string_view key) {
  return bind(json, key, models_.links, link_index_, machine_.link_models, "link");
}

uint32_t ModelBinder::memory_model(core::JsonObject& json, std::string_view key) {
  return bind(json, key, models_.memories, memory_index_, machine_.memory_models, "memory-pool");
}

}  // namespace zs::topology
