// Fidelity names.
#include "core/fidelity.hpp"

namespace zs::core {

std::string_view to_string(Fidelity f) {
  switch (f) {
    case Fidelity::kExact:
      return "exact";
    case Fidelity::kCollapsed:
      return "collapsed";
    case Fidelity::kAuto:
      break;
  }
  return "auto";
}

std::optional<Fidelity> parse_fidelity(std::string_view name) {
  for (auto f : {Fidelity::kAuto, Fidelity::kExact, Fidelity::kCollapsed})
    if (to_string(f) == name) return f;
  return std::nullopt;
}

}  // namespace zs::core
