// The contract between zettasim and a policy plugin: the one C entry point a plugin exports.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>

#include "core/version.hpp"
#include "policy/policy_catalog.hpp"

/// The layout of ZettasimPlugin below; raised whenever that struct or the meaning of its fields changes.
#define ZETTASIM_PLUGIN_ABI 4

extern "C" {
/// What a plugin's entry point `zettasim_plugin` returns. Plain C, so that zettasim can read it from a
/// plugin of any version and refuse one built against another before calling into it.
struct ZettasimPlugin {
  uint32_t abi;                  ///< ZETTASIM_PLUGIN_ABI of the headers the plugin was built with
  const char* zettasim_version;  ///< ZETTASIM_VERSION of the headers the plugin was built with
  const char* name;              ///< the plugin's name, kebab-case
  /// Adds the plugin's policies to `catalog` (a zs::policy::PolicyCatalog whose registries start empty).
  /// Returns 0, or writes one line (NUL-terminated, at most `error_size` bytes) to `error` and returns 1.
  int (*add_policies)(void* catalog, char* error, size_t error_size);
};
}

namespace zs::policy {

/// Calls `add(catalog)` for a plugin's entry point: an exception becomes the error line and 1.
template <void (*add)(PolicyCatalog&)>
int call_plugin_adder(void* catalog, char* error, size_t error_size) noexcept {
  // The message is copied inside the handler: the exception, and what() with it, ends with the handler.
  auto report = [&](const char* what) {
    if (error_size == 0) return;
    std::strncpy(error, what, error_size - 1);
    error[error_size - 1] = '\0';
  };
  try {
    add(*static_cast<PolicyCatalog*>(catalog));
    return 0;
  } catch (const std::exception& e) {
    report(e.what());
  } catch (...) {
    report("unknown exception");
  }
  return 1;
}

}  // namespace zs::policy

/// Defines a plugin's entry point. `name`: the plugin's kebab-case name; `add_function`: a function
/// `void f(zs::policy::PolicyCatalog& catalog)` that adds the plugin's placement, collective, checkpoint
/// and recovery policies to `catalog`'s registries with their `add` (catalog.placement.add(...)). Use it
/// once, at namespace scope, in one source file of the plugin:
///
///     ZETTASIM_PLUGIN("my-policies", add_my_policies)
#define ZETTASIM_PLUGIN(name, add_function)                                            \
  extern "C" __attribute__((visibility("default"))) ZettasimPlugin zettasim_plugin() { \
    return ZettasimPlugin{ZETTASIM_PLUGIN_ABI, ZETTASIM_VERSION, name,                 \
                          &::zs::policy::call_plugin_adder<&add_function>};            \
  }
