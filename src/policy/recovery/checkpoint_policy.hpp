// Checkpoint interval rules: fixed, Young's first-order optimum and Daly's higher-order one.
#pragma once

#include <functional>
#include <string>

namespace zs::policy {

/// Young (1974): the interval of work between checkpoints that minimizes expected waste to first order,
/// sqrt(2 M C), for mean time between failures M and checkpoint cost C (seconds in, seconds out).
double young_interval(double mtbf, double checkpoint_cost);

/// Daly (2006, FGCS 22:303), higher order: sqrt(2 C M) [1 + sqrt(C / 2M) / 3 + (C / 2M) / 9] - C for
/// C < 2M, else M. Reproduces the table in Daly 2006's paper (FGCS 22(3)) (117 min for M = 24 h,
/// C = 5 min).
double daly_interval(double mtbf, double checkpoint_cost);

/// A checkpoint interval rule: the interval of work between checkpoints (s) from the job's mean time
/// between failures (s) and the checkpoint's cost (s).
using CheckpointRule = std::function<double(double mtbf, double checkpoint_cost)>;

/// How a run chooses its checkpoint interval: a named rule (policy_catalog's list), or a fixed interval.
struct CheckpointPolicy {
  std::string rule_name = "daly";       ///< the rule's name; empty for a fixed interval
  CheckpointRule rule = daly_interval;  ///< empty for a fixed interval
  double fixed_interval = 0;            ///< s, when no rule is set

  /// The interval of work between checkpoints, s.
  double interval(double mtbf, double checkpoint_cost) const;
  /// The rule's name ("daly", "young") or the fixed interval.
  std::string describe() const;
};

}  // namespace zs::policy
