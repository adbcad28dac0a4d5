// Loading a scenario together with the plugins it lists, for every front end.
#pragma once

#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "scenario/catalog.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::plugin {

/// Loads each of `files` into `catalog`'s policies (load_plugin), in order.
void load_plugins(const std::vector<std::string>& files, scenario::Catalog& catalog);

/// The scenario at `path`, read against `catalog` once the plugins its "plugins" list names are loaded
/// into it (a plugin that fails to load is an error at /plugins/INDEX of the scenario).
scenario::Scenario load_scenario(const core::FileSource& files, const std::string& path,
                                 scenario::Catalog& catalog, const scenario::LoadLimits& limits = {});

}  // namespace zs::plugin
