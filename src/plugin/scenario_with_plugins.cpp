// Loading a scenario together with the plugins it lists, for every front end.
#include "plugin/scenario_with_plugins.hpp"

#include "core/input_error.hpp"
#include "plugin/plugin_loader.hpp"

namespace zs::plugin {

void load_plugins(const std::vector<std::string>& files, scenario::Catalog& catalog) {
  for (const auto& file : files) load_plugin(file, catalog.policies);
}

scenario::Scenario load_scenario(const core::FileSource& files, const std::string& path,
                                 scenario::Catalog& catalog, const scenario::LoadLimits& limits) {
  const auto listed = scenario::scenario_plugin_files(files, path);
  for (size_t i = 0; i < listed.size(); ++i) {
    try {
      load_plugin(listed[i], catalog.policies);
    } catch (const core::InputError& e) {
      throw core::InputError(path, "/plugins/" + std::to_string(i), e.file() + ": " + e.message());
    }
  }
  return scenario::ScenarioLoader(files, catalog, limits).load(path);
}

}  // namespace zs::plugin
