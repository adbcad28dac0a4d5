// Checkpoint interval rules: fixed, Young's first-order optimum and Daly's higher-order one.
#pragma once

#include <string>

namespace zs::policy {

/// Young (1974): the interval of work between checkpoints that minimizes expected waste to first order,
/// sqrt(2 M C), for mean time between failures M and checkpoint cost C (seconds in, seconds out).
double young_interval(double mtbf, double checkpoint_cost);

/// Daly (2006, FGCS 22:303), higher order: sqrt(2 C M) [1 + sqrt(C / 2M) / 3 + (C / 2M) / 9] - C for
/// C < 2M, else M. Reproduces the table in Daly 2006's paper (FGCS 22(3)) (117 min for M = 24 h,
/// C = 5 min).
double daly_interval(double mtbf, double checkpoint_cost);

/// How a run chooses its checkpoint interval.
struct CheckpointPolicy {
  enum class Rule { kFixed, kYoung, kDaly };
  Rule rule = Rule::kDaly;
  double fixed_interval = 0;  ///< s, for kFixed

  /// The interval of work between checkpoints, s.
  double interval(double mtbf, double checkpoint_cost) const;
  /// "daly", "young" or the fixed interval.
  std::string describe() const;
};

}  // namespace zs::policy
