// Example program built against the installed zettasim package: the policies a scenario can name, and the
// checkpoint interval Daly's rule gives for a published case.
#include <cstdio>

#include "core/version.hpp"
#include "policy/policy_catalog.hpp"
#include "policy/recovery/checkpoint_policy.hpp"

int main() {
  std::printf("zettasim %s\n", zs::core::kVersion);
  const zs::policy::PolicyCatalog catalog;
  for (const auto& e : catalog.placement.entries()) std::printf("placement %s\n", e.name.c_str());
  for (const auto& e : catalog.collective.entries()) std::printf("collective %s\n", e.name.c_str());
  for (const auto& e : catalog.recovery.entries()) std::printf("recovery %s\n", e.name.c_str());
  // Daly 2006 (FGCS 22(3)): a 24 h job MTBF and a 5 min checkpoint give about 117 min of work between
  // checkpoints.
  const double minutes = zs::policy::daly_interval(24 * 3600.0, 300.0) / 60.0;
  std::printf("daly interval for M = 24 h, C = 5 min: %.0f min\n", minutes);
  return 0;
}
