// What one instance of a failing component is: a closed set of scopes with the names rate tables use.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zs::reliability {

/// What one instance of a component of a rate table is.
enum class FailureScope {
  kUnit,         ///< one compute unit
  kHost,         ///< a host of units_per_host units
  kJob,          ///< the whole job (one instance)
  kRack,         ///< the units sharing a domain switch
  kSwitch,       ///< an electrical switch and the units attached to it
  kPowerDomain,  ///< the racks on one power feed, as the topology file declares them
  kLink,         ///< a cable with its transceivers: the link is down until repaired
  kOpticalPort,  ///< a port of an optical circuit switch: its circuit is down until repaired
  kMemoryPool,   ///< a CXL memory pool: its ranks move to other pools until it is repaired
};

/// Every scope, in the order the rate table's documentation lists them.
inline constexpr std::array kFailureScopes = {
    FailureScope::kUnit,        FailureScope::kHost,        FailureScope::kRack,
    FailureScope::kSwitch,      FailureScope::kPowerDomain, FailureScope::kLink,
    FailureScope::kOpticalPort, FailureScope::kMemoryPool,  FailureScope::kJob};

/// The scope's name in a rate table's "per": "unit", "host", "job", "rack", "switch", "power-domain",
/// "link", "optical-port" or "memory-pool".
std::string_view to_string(FailureScope scope);
/// The scope of that name; none for another text.
std::optional<FailureScope> parse_failure_scope(std::string_view name);
/// Every scope's name, for the parameter table's closed set.
std::vector<std::string> failure_scope_names();

}  // namespace zs::reliability
