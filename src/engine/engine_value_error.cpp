// Checks of the quantities the engine hands to SimGrid and returns.
#include "engine/engine_value_error.hpp"

#include <cmath>
#include <cstdio>

namespace zs::engine {

double checked_engine_value(double value, const std::string& what, double limit) {
  if (std::isfinite(value) && value >= 0 && value <= limit) return value;
  char shown[64];
  std::snprintf(shown, sizeof shown, "%.6g", value);
  char bound[64];
  std::snprintf(bound, sizeof bound, "%.6g", limit);
  throw EngineValueError("the simulation derived " + what + " of " + shown + ", outside [0, " + bound +
                         "]: the scenario's values combine beyond what the engine can represent");
}

}  // namespace zs::engine
