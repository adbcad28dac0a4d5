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
  switch (rule) {
    case Rule::kFixed:
      return fixed_interval;
    case Rule::kYoung:
      return young_interval(mtbf, checkpoint_cost);
    case Rule::kDaly:
      return daly_interval(mtbf, checkpoint_cost);
  }
  return fixed_interval;
}

std::string CheckpointPolicy::describe() const {
  switch (rule) {
    case Rule::kFixed:
      return "fixed " + core::display(core::Seconds(fixed_interval));
    case Rule::kYoung:
      return "young";
    case Rule::kDaly:
      return "daly";
  }
  return "";
}

}  // namespace zs::policy
