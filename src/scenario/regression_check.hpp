// One metric of one regression case compared with its baseline: the change and the verdict.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "scenario/regression_suite.hpp"

namespace zs::scenario {

enum class Verdict {
  kHeld,        ///< within the tolerance
  kImproved,    ///< moved beyond the tolerance the better way (passes; the baseline may be updated)
  kRegressed,   ///< moved beyond the tolerance the worse way (or either way, for direction "both")
  kNoBaseline,  ///< a case or metric the baselines do not hold yet (fails until --update-baselines)
  kError,       ///< the case failed to run, or its result has no such number
};

/// "held", "improved", "regressed", "no baseline", "error".
std::string to_string(Verdict v);
/// Whether a verdict lets the suite pass.
bool passes(Verdict v);

struct MetricCheck {
  std::string case_name;
  RegressionMetric metric;
  std::optional<double> baseline;
  std::optional<double> now;
  Verdict verdict = Verdict::kError;
  std::string error;  ///< why, for kError

  /// (now - baseline) / |baseline| in percent; nullopt without both values or with a zero baseline.
  std::optional<double> change_percent() const;
  /// The tolerance as written for reports: "2%" or "0.001".
  std::string tolerance_text() const;
};

/// The verdict of `now` against `baseline` under `metric`'s direction and tolerance. The tolerance is
/// inclusive: a change of exactly the tolerance holds.
Verdict compare(const RegressionMetric& metric, double baseline, double now);

/// A regression case record's outcome: its result (ok), or an error (its input or its process).
enum class CaseStatus { kOk, kError };

/// The outcomes' names as case records write them: "ok", "error".
const core::ChoiceNames<CaseStatus>& case_statuses();

/// The checks of case `c` given its record ({"status": "ok", "result"} or {"status": "error", "error"})
/// against `baselines`, in the case's metric order.
std::vector<MetricCheck> check_case(const RegressionCase& c, const nlohmann::json& record,
                                    const RegressionBaselines& baselines);

/// Every check of a suite's run, in case and metric order.
struct RegressionOutcome {
  std::vector<MetricCheck> checks;
  /// Baselines no case compares any more ("case: metric"), reported, not failed.
  std::vector<std::string> stale;
  /// With --update-baselines: one line per value written, changed or removed.
  std::vector<std::string> baseline_changes;

  bool passed() const;
  size_t count(Verdict v) const;
};

/// The number at the metric's pointer in a case's result, or nullopt with `error` set.
std::optional<double> metric_value(const nlohmann::json& result, const RegressionMetric& metric,
                                   std::string& error);

}  // namespace zs::scenario
