// A regression suite file: cases (scenarios with plugin and policy overrides), the metrics compared and
// where their baselines are kept.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "core/file_source.hpp"
#include "core/param_table.hpp"

namespace zs::scenario {

/// Which way a metric may move: lower-is-better fails when it rises beyond the tolerance, higher-is-better
/// when it falls, both when it moves either way.
enum class MetricDirection { kLowerIsBetter, kHigherIsBetter, kBoth };
/// The names suite files write for them: "lower-is-better", "higher-is-better", "both".
const core::ChoiceNames<MetricDirection>& metric_directions();

/// One compared metric: a scalar of the case's result (summary.json of `run`, goodput.json of `goodput`).
struct RegressionMetric {
  std::string name;  ///< a top-level key ("iteration_time_s") or a JSON pointer ("/a/b")
  MetricDirection direction = MetricDirection::kBoth;
  double tolerance = 0;  ///< relative (a fraction of the baseline) or absolute (the metric's unit)
  bool relative = true;
  /// The JSON pointer of the value in the result.
  std::string pointer() const { return name.front() == '/' ? name : "/" + name; }
};

/// One case: a scenario run (or its goodput study) with optional plugins and policy overrides.
struct RegressionCase {
  std::string name;
  std::string scenario;              ///< the scenario file, resolved against the suite's folder
  bool goodput = false;              ///< "study": "goodput" (goodput.json) rather than "run"
  std::vector<std::string> plugins;  ///< the suite's plugins, then the case's, resolved
  std::optional<std::string> placement, collective;  ///< policy overrides
  std::vector<RegressionMetric> metrics;             ///< the case's, or the suite's
};

struct RegressionSuite {
  std::string file;
  std::string name;
  std::string description;
  std::string baselines;  ///< the baselines file, resolved
  std::vector<RegressionCase> cases;

  /// Reads and checks a suite file (kind "regression-suite"); every problem is a core::InputError naming
  /// the file and JSON path. Scenario files are checked to exist, not loaded.
  static RegressionSuite load(const core::FileSource& files, const std::string& path);
};

/// Baselines: case name → metric name → value.
using RegressionBaselines = std::map<std::string, std::map<std::string, double>>;

/// The suite's baselines file, or no baselines when it does not exist yet. Throws core::InputError for a
/// malformed file or one of another suite.
RegressionBaselines load_regression_baselines(const core::FileSource& files, const RegressionSuite& suite);

/// The baselines file's JSON: {"kind": "regression-baselines", "suite", "cases": {case: {metric: value}}}.
nlohmann::json regression_baselines_json(const RegressionSuite& suite, const RegressionBaselines& baselines);

/// The scenario of case `c` as its process runs it: the scenario file's JSON with the case's policy
/// overrides set (its relative paths still resolve against its own folder).
nlohmann::json regression_case_scenario(const core::FileSource& files, const RegressionCase& c);

const core::ParamTable& regression_suite_params();

}  // namespace zs::scenario
