// One metric of one regression case compared with its baseline: the change and the verdict.
#include "scenario/regression_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zs::scenario {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::kHeld:
      return "held";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kNoBaseline:
      return "no baseline";
    case Verdict::kError:
      return "error";
  }
  return "error";
}

bool passes(Verdict v) {
  return v == Verdict::kHeld || v == Verdict::kImproved;
}

std::optional<double> MetricCheck::change_percent() const {
  if (!baseline || !now || *baseline == 0) return std::nullopt;
  return (*now - *baseline) / std::fabs(*baseline) * 100.0;
}

std::string MetricCheck::tolerance_text() const {
  char text[64];
  if (metric.relative)
    std::snprintf(text, sizeof text, "%g%%", metric.tolerance * 100.0);
  else
    std::snprintf(text, sizeof text, "%g", metric.tolerance);
  return text;
}

Verdict compare(const RegressionMetric& metric, double baseline, double now) {
  const double allowed = metric.relative ? metric.tolerance * std::fabs(baseline) : metric.tolerance;
  // A relative change computed in the baseline's scale: exactly the tolerance holds despite rounding.
  const double slack = 1e-12 * std::max(std::fabs(baseline), std::fabs(now));
  const double change = now - baseline;
  const bool up = change > allowed + slack, down = -change > allowed + slack;
  if (!up && !down) return Verdict::kHeld;
  switch (metric.direction) {
    case MetricDirection::kLowerIsBetter:
      return up ? Verdict::kRegressed : Verdict::kImproved;
    case MetricDirection::kHigherIsBetter:
      return down ? Verdict::kRegressed : Verdict::kImproved;
    case MetricDirection::kBoth:
      return Verdict::kRegressed;
  }
  return Verdict::kRegressed;
}

std::optional<double> metric_value(const nlohmann::json& result, const RegressionMetric& metric,
                                   std::string& error) {
  const std::string pointer = metric.pointer();
  try {
    const nlohmann::json& v = result.at(nlohmann::json::json_pointer(pointer));
    if (v.is_number() && std::isfinite(v.get<double>())) return v.get<double>();
    error = "the result's \"" + pointer + "\" is not a finite number";
  } catch (const nlohmann::json::exception&) {
    error = "the result has no \"" + pointer + "\"";
  }
  return std::nullopt;
}

const core::ChoiceNames<CaseStatus>& case_statuses() {
  static const core::ChoiceNames<CaseStatus> names{{CaseStatus::kOk, "ok"}, {CaseStatus::kError, "error"}};
  return names;
}

std::vector<MetricCheck> check_case(const RegressionCase& c, const nlohmann::json& record,
                                    const RegressionBaselines& baselines) {
  std::vector<MetricCheck> out;
  const auto held = baselines.find(c.name);
  const bool ran = case_statuses().find(record.value("status", "")) == CaseStatus::kOk;
  for (const auto& metric : c.metrics) {
    MetricCheck check{c.name, metric, std::nullopt, std::nullopt, Verdict::kError, ""};
    if (held != baselines.end())
      if (const auto b = held->second.find(metric.name); b != held->second.end()) check.baseline = b->second;
    if (!ran) {
      check.error = "the case failed to run: " + record.value("error", std::string("no record"));
    } else if ((check.now = metric_value(record.at("result"), metric, check.error))) {
      check.verdict = check.baseline ? compare(metric, *check.baseline, *check.now) : Verdict::kNoBaseline;
    }
    out.push_back(std::move(check));
  }
  return out;
}

bool RegressionOutcome::passed() const {
  return std::all_of(checks.begin(), checks.end(), [](const auto& c) { return passes(c.verdict); });
}

size_t RegressionOutcome::count(Verdict v) const {
  return static_cast<size_t>(
      std::count_if(checks.begin(), checks.end(), [v](const auto& c) { return c.verdict == v; }));
}

}  // namespace zs::scenario
