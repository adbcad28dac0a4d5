// Checkpoint interval rules.
#include "policy/recovery/checkpoint_policy.hpp"

#include <cmath>

#include "core/units.hpp"

namespace zs::policy {

double young_interval(double mtbf, double checkpoint_cost) {
  return std::sqrt(2 * mtbf * checkpoint_cost);
}

double daly_interval(double mtbf, double checkpoint_cost) {
  if (checkpoint_cost >= 2 * mtbf) return mtbf;
  const double x = checkpoint_cost / (2 * mtbf);
  return std::sqrt(2 * checkpoint_cost * mtbf) * (1 + std::sqrt(x) / 3 + x / 9) - checkpoint_cost;
}

double CheckpointPolicy::interval(double mtbf, double checkpoint_cost) const {
  return rule ? rule(mtbf, checkpoint_cost) : fixed_interval;
}

std::string CheckpointPolicy::describe() const {
  return rule ? rule_name : "fixed " + core::display(core::Seconds(fixed_interval));
}

}  // namespace zs::policy
