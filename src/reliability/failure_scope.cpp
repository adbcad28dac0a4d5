// The names of failure scopes.
#include "reliability/failure_scope.hpp"

namespace zs::reliability {

std::string_view to_string(FailureScope scope) {
  switch (scope) {
    case FailureScope::kUnit:
      return "unit";
    case FailureScope::kHost:
      return "host";
    case FailureScope::kJob:
      return "job";
    case FailureScope::kRack:
      return "rack";
    case FailureScope::kSwitch:
      return "switch";
    case FailureScope::kPowerDomain:
      return "power-domain";
    case FailureScope::kLink:
      return "link";
    case FailureScope::kOpticalPort:
      return "optical-port";
    case FailureScope::kMemoryPool:
      break;
  }
  return "memory-pool";
}

std::optional<FailureScope> parse_failure_scope(std::string_view name) {
  for (auto scope : kFailureScopes)
    if (to_string(scope) == name) return scope;
  return std::nullopt;
}

std::vector<std::string> failure_scope_names() {
  std::vector<std::string> names;
  for (auto scope : kFailureScopes) names.emplace_back(to_string(scope));
  return names;
}

}  // namespace zs::reliability
