// Test helper: a rate table whose components practically never fail on their own, for scripted failures.
#pragma once

#include <nlohmann/json.hpp>

namespace zs::test {

/// A rate table whose components practically never fail on their own (one failure in 10^12 s), so that
/// only the scripted events happen: a unit ("gpu") and a power feed ("feed", per power domain).
inline nlohmann::json quiet_rates() {
  return {{"kind", "failure-rates"},
          {"name", "quiet"},
          {"source", "test value"},
          {"observed", {{"units", 1}, {"units_per_host", 8}, {"duration", "1000000000000s"}}},
          {"components",
           {{{"name", "gpu"}, {"per", "unit"}, {"count", 1}, {"recovery", "replace"}},
            {{"name", "feed"},
             {"per", "power-domain"},
             {"observed_instances", 1},
             {"count", 1},
             {"recovery", "replace"}}}}};
}

}  // namespace zs::test
