// Loads policy plugins (shared libraries exporting zettasim_plugin) into a policy catalog.
#include "plugin/plugin_loader.hpp"

#include <filesystem>

#include <dlfcn.h>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/registry.hpp"
#include "plugin/guarded_policies.hpp"
#include "plugin/shared_library_file.hpp"
#include "policy/plugin_api.hpp"

namespace zs::plugin {
namespace {

/// The plugin's description of itself, read through its entry point; throws when it has none.
ZettasimPlugin read_entry_point(const std::string& file) {
  if (const auto problem = shared_library_problem(file))
    throw core::InputError(file, "", "cannot load the plugin: the file is " + *problem);
  // RTLD_NODELETE: the policies it adds may outlive any handle; RTLD_LOCAL: its symbols stay its own.
  void* library = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (library == nullptr) {
    const char* why = ::dlerror();
    throw core::InputError(file, "",
                           std::string("cannot load the plugin: ") + (why ? why : "unknown reason"));
  }
  using EntryPoint = ZettasimPlugin (*)();
  auto entry = reinterpret_cast<EntryPoint>(::dlsym(library, "zettasim_plugin"));
  if (entry == nullptr)
    throw core::InputError(file, "",
                           "not a zettasim plugin: it exports no zettasim_plugin entry point "
                           "(define one with ZETTASIM_PLUGIN, policy/plugin_api.hpp)");
  const ZettasimPlugin plugin = entry();
  const std::string version = plugin.zettasim_version != nullptr ? plugin.zettasim_version : "?";
  if (plugin.abi != ZETTASIM_PLUGIN_ABI || version != core::kVersion)
    throw core::InputError(file, "",
                           "the plugin was built against zettasim " + version + " (plugin ABI " +
                               std::to_string(plugin.abi) + "), this is zettasim " + core::kVersion +
                               " (plugin ABI " + std::to_string(ZETTASIM_PLUGIN_ABI) +
                               "): rebuild it against this version's installed package");
  const std::string name = plugin.name != nullptr ? plugin.name : "";
  if (!core::is_kebab_case(name))
    throw core::InputError(file, "", "the plugin's name \"" + name + "\" is not kebab-case");
  if (plugin.add_policies == nullptr)
    throw core::InputError(file, "", "the plugin's entry point gives no add_policies function");
  return plugin;
}

/// Adds each entry of `from` to `to` through `wrap`, tagged with the plugin's name.
template <class Registry, class Wrap>
void merge(const Registry& from, Registry& to, const policy::LoadedPlugin& plugin, Wrap wrap) {
  for (const auto& e : from.entries()) {
    if (to.find(e.name) != nullptr)
      throw core::InputError(plugin.file, "",
                             "the plugin adds " + to.family() + " \"" + e.name +
                                 "\", which already exists (known: " + to.names() + ")");
    PolicyOrigin origin{plugin.file, to.family(), e.name};
    to.add(e.name, e.description + " [plugin " + plugin.name + "]", wrap(e.make, std::move(origin)),
           e.params);
  }
}

}  // namespace

void load_plugin(const std::string& file, policy::PolicyCatalog& catalog) {
  const std::string path = core::absolute_path(file);
  if (catalog.plugin_from(path) != nullptr) return;
  if (!std::filesystem::is_regular_file(path))
    throw core::InputError(file, "", "no such plugin file (expected a shared library, PATH.so)");
  const ZettasimPlugin entry = read_entry_point(path);
  const policy::LoadedPlugin plugin{entry.name, path};

  policy::PolicyCatalog added = policy::PolicyCatalog::empty();
  char error[512] = {};
  if (entry.add_policies(&added, error, sizeof error) != 0)
    throw core::InputError(path, "", std::string("the plugin failed to add its policies: ") + error);
  if (added.placement.entries().empty() && added.collective.entries().empty() &&
      added.checkpoint_rule.entries().empty() && added.recovery.entries().empty())
    throw core::InputError(path, "", "the plugin adds no policy");

  policy::PolicyCatalog merged = catalog;  // all or nothing: `catalog` changes only when every entry fits
  merge(added.placement, merged.placement, plugin, guarded_placement_factory);
  merge(added.collective, merged.collective, plugin, guarded_collective_factory);
  merge(added.checkpoint_rule, merged.checkpoint_rule, plugin, guarded_checkpoint_rule);
  merge(added.recovery, merged.recovery, plugin, guarded_recovery_factory);
  merged.plugins.push_back(plugin);
  catalog = std::move(merged);
}

}  // namespace zs::plugin
