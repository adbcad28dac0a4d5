// Test helper: a rate table whose components practically never fail on their own, for scripted failures.
#pragma once

#include <string>
#include <utility>
#include <vector>

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

/// A rate table of parts counted on the machine, given as (name, per) ("link", "optical-port",
/// "memory-pool"), each restarting the job and practically never failing on its own.
inline nlohmann::json quiet_parts(const std::vector<std::pair<std::string, std::string>>& parts) {
  nlohmann::json components = nlohmann::json::array();
  for (const auto& [name, per] : parts)
    components.push_back(
        {{"name", name}, {"per", per}, {"observed_instances", 1}, {"count", 1}, {"recovery", "restart"}});
  return {{"kind", "failure-rates"},
          {"name", "quiet-parts"},
          {"source", "test value"},
          {"observed", {{"units", 1}, {"units_per_host", 8}, {"duration", "1000000000000s"}}},
          {"components", components}};
}

/// A reliability section of one day and one seed for scripted failures: the rate table at `rates_file`,
/// checkpoints every 30 min to a 100 GB/s store, detection 1 min, restart 5 min, repair 2 days (past the
/// horizon); a test adds its spares, recovery and events.
inline nlohmann::json one_day_of_scripted_failures(const std::string& rates_file) {
  return {{"failure_rates", rates_file},
          {"horizon", "1d"},
          {"seeds", 1},
          {"checkpoint", {{"interval", "30min"}, {"bandwidth", "100GB/s"}}},
          {"detection", "1min"},
          {"restart", "5min"},
          {"repair", "2d"}};
}

}  // namespace zs::test
