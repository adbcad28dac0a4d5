// A regression suite file: cases (scenarios with plugin and policy overrides), the metrics compared and
// where their baselines are kept.
#include "scenario/regression_suite.hpp"

#include <cmath>
#include <filesystem>
#include <set>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"

namespace zs::scenario {

using core::Param;

const core::ChoiceNames<MetricDirection>& metric_directions() {
  static const core::ChoiceNames<MetricDirection> names{
      {MetricDirection::kLowerIsBetter, "lower-is-better"},
      {MetricDirection::kHigherIsBetter, "higher-is-better"},
      {MetricDirection::kBoth, "both"}};
  return names;
}

namespace {

/// What a case runs: one iteration, or days under failures.
enum class CaseStudy : uint8_t { kRun, kGoodput };
const core::ChoiceNames<CaseStudy>& case_studies() {
  static const core::ChoiceNames<CaseStudy> names{{CaseStudy::kRun, "run"}, {CaseStudy::kGoodput, "goodput"}};
  return names;
}

const core::ParamTable& metric_params() {
  static const core::ParamTable table(
      "regression-suite.metric", "a compared scalar of the case's summary.json (run) or goodput.json",
      {Param::text("metric", "a top-level key of the result (\"iteration_time_s\") or a JSON pointer"),
       Param::choice("direction", metric_directions().names(),
                     "which change fails: a rise (lower-is-better), a fall (higher-is-better) or either"),
       Param::number("relative_tolerance", 0, 1e6, "allowed change, a fraction of the baseline (0.02: 2%)")
           .optional(),
       Param::number("absolute_tolerance", 0, 1e300, "allowed change, in the metric's unit").optional()});
  return table;
}

const core::ParamTable& case_params() {
  static const core::ParamTable table(
      "regression-suite.case", "one scenario run and compared",
      {Param::text("name", "the case's name in reports and baselines (one safe path component)"),
       Param::text("scenario", "a scenario file, relative to the suite file"),
       Param::choice("study", case_studies().names(),
                     "one iteration (summary.json) or days under failures (goodput.json)")
           .or_default("run"),
       Param::list("plugins", "plugin files, relative to the suite file", "policy plugins of this case")
           .optional(),
       Param::text("placement", "overrides the scenario's placement policy").optional(),
       Param::text("collective", "overrides the scenario's collective policy").optional(),
       Param::list("metrics", metric_params(), "the metrics of this case; left out, the suite's")
           .optional()});
  return table;
}

RegressionMetric read_metric(core::ParamReader& in) {
  RegressionMetric m;
  m.name = in.get<std::string>("metric");
  if (m.name.empty()) throw in.error("metric", "expected a key of the result or a JSON pointer");
  try {
    (void)nlohmann::json::json_pointer(m.pointer());
  } catch (const nlohmann::json::exception&) {
    throw in.error("metric",
                   "expected a key of the result or a JSON pointer (\"~\" written \"~0\", \"/\" in a key "
                   "\"~1\"), got \"" +
                       m.name + "\"");
  }
  m.direction = in.get_choice("direction", metric_directions());
  const auto relative = in.find<double>("relative_tolerance");
  const auto absolute = in.find<double>("absolute_tolerance");
  if (relative.has_value() == absolute.has_value())
    throw in.error("expected exactly one of \"relative_tolerance\" and \"absolute_tolerance\"");
  m.relative = relative.has_value();
  m.tolerance = relative ? *relative : *absolute;
  in.finish();
  return m;
}

std::vector<RegressionMetric> read_metrics(core::ParamReader& in, const std::string& key) {
  std::vector<RegressionMetric> out;
  std::set<std::string> names;
  for (auto& m : in.parts(key)) {
    RegressionMetric metric = read_metric(m);
    if (!names.insert(metric.name).second)
      throw m.error("metric", "\"" + metric.name + "\" is compared twice");
    out.push_back(std::move(metric));
  }
  if (out.empty()) throw in.error(key, "expected at least one metric");
  return out;
}

std::vector<std::string> read_plugins(core::ParamReader& in, const std::string& suite_file) {
  std::vector<std::string> out;
  if (!in.has("plugins")) return out;
  for (const auto& p : in.json().strings("plugins", "an array of plugin files (PATH.so)", "a plugin file"))
    out.push_back(core::resolve_relative(suite_file, p));
  in.list("plugins");
  return out;
}

RegressionCase read_case(core::ParamReader& in, const core::FileSource& files, const std::string& suite_file,
                         const std::vector<std::string>& suite_plugins,
                         const std::vector<RegressionMetric>* suite_metrics) {
  RegressionCase c;
  in.get<std::string>("name");
  c.name = in.json().file_name("name");
  c.scenario = core::resolve_relative(suite_file, in.get<std::string>("scenario"));
  if (!files.exists(c.scenario)) throw in.error("scenario", "no scenario file at \"" + c.scenario + "\"");
  c.goodput = in.get_choice("study", case_studies()) == CaseStudy::kGoodput;
  c.plugins = suite_plugins;
  for (auto& p : read_plugins(in, suite_file)) c.plugins.push_back(std::move(p));
  c.placement = in.find<std::string>("placement");
  c.collective = in.find<std::string>("collective");
  if (in.has("metrics")) {
    c.metrics = read_metrics(in, "metrics");
  } else if (suite_metrics != nullptr) {
    c.metrics = *suite_metrics;
  } else {
    throw in.error("the case compares no metric: give \"metrics\" here or in the suite");
  }
  in.finish();
  return c;
}

/// The string at `key` of `doc`, or "" where `doc` is no object or the value is missing or not a string.
std::string string_member(const nlohmann::json& doc, const char* key) {
  if (!doc.is_object()) return "";
  const auto it = doc.find(key);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

const core::ParamTable& regression_suite_params() {
  static const core::ParamTable table(
      "regression-suite", "scenarios whose metrics CI compares with committed baselines (zettasim regress)",
      {Param::file_kind(core::FileKind::kRegressionSuite, "a regression suite file"),
       Param::text("name", "the suite's name (one safe path component)"),
       Param::text("description", "one line: what the suite guards").or_default(""),
       Param::text("baselines", "the baselines file, relative to this file (default: NAME.baselines.json)")
           .optional(),
       Param::list("plugins", "plugin files, relative to this file", "policy plugins of every case")
           .optional(),
       Param::list("metrics", metric_params(), "the metrics every case compares, unless it names its own")
           .optional(),
       Param::list("cases", case_params(), "the scenarios run, each compared with its baselines")});
  return table;
}

RegressionSuite RegressionSuite::load(const core::FileSource& files, const std::string& path) {
  const nlohmann::json doc = files.read_json(path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (a regression suite)");
  core::ParamReader in(regression_suite_params(), core::JsonObject(doc, path, ""));
  in.get<std::string>("kind");  // the table's constant
  RegressionSuite suite;
  suite.file = path;
  in.get<std::string>("name");
  suite.name = in.json().file_name("name");
  suite.description = in.get<std::string>("description");
  const auto baselines = in.find<std::string>("baselines");
  suite.baselines = core::resolve_relative(path, baselines ? *baselines : suite.name + ".baselines.json");
  const std::vector<std::string> plugins = read_plugins(in, path);
  std::optional<std::vector<RegressionMetric>> metrics;
  if (in.has("metrics")) metrics = read_metrics(in, "metrics");
  std::set<std::string> names;
  for (auto& c : in.parts("cases")) {
    RegressionCase read = read_case(c, files, path, plugins, metrics ? &*metrics : nullptr);
    if (!names.insert(read.name).second) throw c.error("name", "a second case named \"" + read.name + "\"");
    suite.cases.push_back(std::move(read));
  }
  if (suite.cases.empty()) throw in.error("cases", "expected at least one case");
  in.finish();
  return suite;
}

RegressionBaselines load_regression_baselines(const core::FileSource& files, const RegressionSuite& suite) {
  RegressionBaselines out;
  if (!files.exists(suite.baselines)) return out;
  const nlohmann::json doc = files.read_json(suite.baselines);
  const std::string& f = suite.baselines;
  if (core::kind_of(doc) != core::FileKind::kRegressionBaselines)
    throw core::InputError(f, "/kind", "expected a baselines file ({\"kind\": \"regression-baselines\"})");
  if (string_member(doc, "suite") != suite.name)
    throw core::InputError(f, "/suite", "expected the baselines of suite \"" + suite.name + "\"");
  for (const auto& [key, _] : doc.items())
    if (key != "kind" && key != "suite" && key != "cases")
      throw core::InputError(f, core::json_pointer_append("", key),
                             "unknown key (a baselines file holds kind, suite and cases)");
  const auto cases = doc.find("cases");
  if (cases == doc.end() || !cases->is_object())
    throw core::InputError(f, "/cases", "expected an object: case name → {metric: value}");
  for (const auto& [name, metrics] : cases->items()) {
    const std::string at = core::json_pointer_append("/cases", name);
    if (!metrics.is_object()) throw core::InputError(f, at, "expected an object: metric → value");
    for (const auto& [metric, value] : metrics.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()))
        throw core::InputError(f, core::json_pointer_append(at, metric), "expected a finite number");
      out[name][metric] = value.get<double>();
    }
  }
  return out;
}

nlohmann::json regression_baselines_json(const RegressionSuite& suite, const RegressionBaselines& baselines) {
  nlohmann::json cases = nlohmann::json::object();
  for (const auto& [name, metrics] : baselines)
    for (const auto& [metric, value] : metrics) cases[name][metric] = value;
  return {{"kind", core::to_string(core::FileKind::kRegressionBaselines)},
          {"suite", suite.name},
          {"cases", cases}};
}

nlohmann::json regression_case_scenario(const core::FileSource& files, const RegressionCase& c) {
  nlohmann::json doc = files.read_json(c.scenario);
  if (!doc.is_object()) throw core::InputError(c.scenario, "", "expected a JSON object (a scenario)");
  if (c.placement) doc["policies"]["placement"] = *c.placement;
  if (c.collective) doc["policies"]["collective"] = *c.collective;
  return doc;
}

}  // namespace zs::scenario
