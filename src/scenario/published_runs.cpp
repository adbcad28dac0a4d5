// A published-runs validation file, its scaling series and the comparison with the published figures.
#include "scenario/published_runs.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "core/file_kind.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::scenario {
namespace {

/// A non-empty array at `key`, or an error saying what it should hold.
const nlohmann::json& nonempty_array(core::JsonObject& root, std::string_view key, const std::string& what) {
  const auto& v = root.required(key);
  if (!v.is_array() || v.empty()) throw root.error(key, "expected a non-empty array of " + what);
  return v;
}

std::vector<PublishedRun> read_runs(core::JsonObject& root) {
  const auto& runs = nonempty_array(root, "runs", "runs");
  std::vector<PublishedRun> out;
  std::set<std::string> names;
  for (size_t i = 0; i < runs.size(); ++i) {
    auto r = root.element("runs", runs[i], i);
    PublishedRun run;
    run.name = r.file_name("name");
    if (!names.insert(run.name).second) throw r.error("name", "another run is named \"" + run.name + "\"");
    run.scenario = core::resolve_relative(root.file(), r.string("scenario"));
    run.published_iteration_s = r.seconds("iteration_time", core::Bound::kPositive).value();
    run.hardware = r.string("hardware");
    if (run.hardware.find_first_of(",\"\r\n") != std::string::npos)  // a column of validation.csv as it is
      throw r.error("hardware",
                    "expected a label without commas, quotes or line breaks (it is a CSV column)");
    run.moe = r.boolean_or("moe", false);
    run.source = r.string("source");
    r.finish();
    out.push_back(std::move(run));
  }
  return out;
}

std::vector<ScalingSeries> read_scaling(core::JsonObject& root, const std::vector<PublishedRun>& runs) {
  std::vector<ScalingSeries> out;
  if (root.optional("scaling") == nullptr) return out;
  const auto& series = nonempty_array(root, "scaling", "scaling series");
  for (size_t i = 0; i < series.size(); ++i) {
    auto s = root.element("scaling", series[i], i);
    ScalingSeries one{s.string("name"), s.strings("runs", "an array of run names", "a run name")};
    if (one.runs.size() < 2) throw s.error("runs", "expected at least two runs (fewest GPUs first)");
    for (size_t k = 0; k < one.runs.size(); ++k)
      if (std::none_of(runs.begin(), runs.end(), [&](const auto& r) { return r.name == one.runs[k]; }))
        throw core::InputError(root.file(), s.element_pointer("runs", k),
                               "expected the name of a run of this file, got \"" + one.runs[k] + "\"");
    s.finish();
    out.push_back(std::move(one));
  }
  return out;
}

}  // namespace

core::FileKind validation_kind(const core::FileSource& files, const std::string& path) {
  const nlohmann::json doc = files.read_json(path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (a validation file)");
  const auto kind = core::kind_of(doc);
  if (kind != core::FileKind::kValidation && kind != core::FileKind::kPublishedRuns)
    throw core::InputError(path, "/kind", "expected \"validation\" or \"published-runs\"");
  return *kind;
}

PublishedRunsSpec PublishedRunsSpec::load(const core::FileSource& files, const std::string& path) {
  const nlohmann::json doc = files.read_json(path);
  core::JsonObject root(doc, path, "");
  if (core::parse_file_kind(root.string("kind")) != core::FileKind::kPublishedRuns)
    throw root.error("kind", "expected \"published-runs\"");
  PublishedRunsSpec s;
  s.file = path;
  s.name = root.file_name("name");
  s.description = root.string("description");
  s.mechanisms = root.string("mechanisms");
  auto acceptance = root.object("acceptance");
  s.row_tolerance = acceptance.number("row_error", 0.0, 10.0);
  s.mean_tolerance = acceptance.number("mean_absolute_error", 0.0, 10.0);
  s.scaling_tolerance = acceptance.number("scaling_points", 0.0, 100.0) / 100.0;
  acceptance.finish();
  s.runs = read_runs(root);
  s.scaling = read_scaling(root, s.runs);
  root.finish();
  return s;
}

double scaling_efficiency(double first_tokens, double first_s, uint64_t first_gpus, double last_tokens,
                          double last_s, uint64_t last_gpus) {
  const double first = first_tokens / (first_s * double(first_gpus));
  const double last = last_tokens / (last_s * double(last_gpus));
  return last / first;
}

PublishedRunsSummary summarize(const PublishedRunsSpec& spec,
                               const std::vector<PublishedRunResult>& results) {
  std::vector<std::optional<double>> errors;
  std::map<std::string, const PublishedRunResult*> by_name;
  for (const auto& r : results) {
    errors.push_back(r.predicted_iteration_s ? std::optional<double>(r.error()) : std::nullopt);
    by_name[r.run.name] = &r;
  }
  PublishedRunsSummary s;
  static_cast<ErrorSummary&>(s) = summarize_errors(errors, spec.row_tolerance);
  s.passed = s.holds(spec.mean_tolerance);
  for (const auto& series : spec.scaling) {
    ScalingResult out{series, std::nullopt, std::nullopt, false};
    const auto first = by_name.find(series.runs.front()), last = by_name.find(series.runs.back());
    if (first != by_name.end() && last != by_name.end() && first->second->gpus > 0 &&
        last->second->gpus > 0) {
      const PublishedRunResult &a = *first->second, &b = *last->second;
      out.published = scaling_efficiency(a.tokens_per_iteration, a.run.published_iteration_s, a.gpus,
                                         b.tokens_per_iteration, b.run.published_iteration_s, b.gpus);
      if (a.predicted_iteration_s && b.predicted_iteration_s)
        out.predicted = scaling_efficiency(a.tokens_per_iteration, *a.predicted_iteration_s, a.gpus,
                                           b.tokens_per_iteration, *b.predicted_iteration_s, b.gpus);
    }
    out.holds =
        out.published && out.predicted && std::abs(*out.predicted - *out.published) <= spec.scaling_tolerance;
    s.passed = s.passed && out.holds;
    s.scaling.push_back(std::move(out));
  }
  return s;
}

}  // namespace zs::scenario
