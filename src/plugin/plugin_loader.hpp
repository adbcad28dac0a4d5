// Loads policy plugins (shared libraries exporting zettasim_plugin) into a policy catalog.
#pragma once

#include <string>

#include "policy/policy_catalog.hpp"

namespace zs::plugin {

/// Loads the shared library `file` (built against this zettasim's installed package, see
/// policy/plugin_api.hpp) and adds its placement and collective policies and checkpoint rules to `catalog`,
/// each named like a built-in one, its description ending in "[plugin NAME]", its calls guarded (what they
/// throw is reported as this plugin's error). The library stays loaded for the life of the process. A file
/// already loaded into `catalog` is not loaded twice. Throws core::InputError naming `file` when it cannot
/// be loaded, lacks the entry point, was built against another zettasim version, fails to add its
/// policies, adds none, or names one that `catalog` already has.
void load_plugin(const std::string& file, policy::PolicyCatalog& catalog);

}  // namespace zs::plugin
