// A sweep's points, checked against its base scenario, and the scenario of one point.
#include "scenario/sweep_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "core/json_object.hpp"
#include "core/splitmix.hpp"
#include "scenario/scenario_patch.hpp"

namespace zs::scenario {
namespace {

std::string quoted(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

/// A range's or sample's bound as a number in the parameter's SI unit.
double bound_value(const SweepSpec& spec, const SweepAxis& axis, const nlohmann::json& bound, const char* key,
                   const char* form) {
  const std::string at = axis.where + "/" + form + "/" + key;
  if (!is_numeric(axis.kind))
    throw core::InputError(spec.file, axis.where + "/" + form,
                           "a " + std::string(form) + " needs a numeric parameter; \"" + axis.pointer +
                               "\" is " + describe(axis.kind));
  SweepValueKind read_as = axis.kind == SweepValueKind::kInteger ? SweepValueKind::kNumber : axis.kind;
  const auto x = numeric_value(read_as, bound);
  if (!x) throw core::InputError(spec.file, at, "expected " + describe(axis.kind) + ", got " + quoted(bound));
  // Whole numbers between bounds are computed in doubles: beyond 2^53 they would no longer be exact, and
  // beyond 2^63 not representable at all.
  constexpr double kExactWhole = 9007199254740992.0;  // 2^53
  if (axis.kind == SweepValueKind::kInteger && !(std::fabs(*x) <= kExactWhole))
    throw core::InputError(spec.file, at,
                           "expected a whole number within +-9007199254740992 (2^53), got " + quoted(bound));
  return *x;
}

/// x in [lo, hi] at fraction u, on a linear or log scale.
double between(double lo, double hi, double u, bool log) {
  return log ? lo * std::pow(hi / lo, u) : lo + (hi - lo) * u;
}

/// `x` to 12 significant digits: a range's steps as a user writes them (4194304, not 4194303.9999999995).
double round_to_12_digits(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", x);
  return std::strtod(text, nullptr);
}

void check_log_bounds(const SweepSpec& spec, const SweepAxis& axis, double lo, double hi, const char* form) {
  if (!(lo > 0 && hi > 0))
    throw core::InputError(spec.file, axis.where + "/" + form, "a log scale needs bounds above 0");
}

void expand_range(const SweepSpec& spec, SweepAxis& axis) {
  const double lo = bound_value(spec, axis, axis.range_from, "from", "range");
  const double hi = bound_value(spec, axis, axis.range_to, "to", "range");
  if (axis.range_log) check_log_bounds(spec, axis, lo, hi, "range");
  for (int64_t i = 0; i < axis.range_steps; ++i) {
    const double u = static_cast<double>(i) / static_cast<double>(axis.range_steps - 1);
    axis.values.push_back(value_of(
        axis.kind, i + 1 == axis.range_steps ? hi : round_to_12_digits(between(lo, hi, u, axis.range_log))));
  }
  for (size_t i = 1; i < axis.values.size(); ++i)
    if (same_value(axis.kind, axis.values[i], axis.values[i - 1]))
      throw core::InputError(
          spec.file, axis.where + "/range/steps",
          "the range gives " + quoted(axis.values[i]) + " twice (whole numbers): use fewer steps");
}

/// Draws the sampled axes' values together: count points, random or one per stratum of every axis.
void draw_samples(SweepSpec& spec) {
  core::SplitMixStream stream(core::splitmix64(spec.seed));
  const uint64_t n = spec.sample_count;
  for (auto& axis : spec.axes) {
    if (!axis.sampled) continue;
    const double lo = bound_value(spec, axis, axis.sample_from, "from", "sample");
    const double hi = bound_value(spec, axis, axis.sample_to, "to", "sample");
    if (axis.sample_log) check_log_bounds(spec, axis, lo, hi, "sample");
    std::vector<uint64_t> stratum(n);
    for (uint64_t i = 0; i < n; ++i) stratum[i] = i;
    if (spec.latin_hypercube)
      for (uint64_t i = n; i > 1; --i) std::swap(stratum[i - 1], stratum[stream.next() % i]);
    for (uint64_t j = 0; j < n; ++j) {
      const double u = spec.latin_hypercube
                           ? (static_cast<double>(stratum[j]) + stream.uniform()) / static_cast<double>(n)
                           : stream.uniform();
      axis.values.push_back(value_of(axis.kind, between(lo, hi, u, axis.sample_log)));
    }
  }
}

/// Checks an explicit list of values against the parameter (or, at a model's entry, names a file).
void check_values(const core::FileSource& files, const SweepSpec& spec, const SweepAxis& axis,
                  const PatchTarget& target) {
  const bool include = target.include;
  for (size_t i = 0; i < axis.values.size(); ++i) {
    const nlohmann::json& v = axis.values[i];
    const std::string at = axis.where + "/values/" + std::to_string(i);
    if (target.named && v.is_string()) {  // a policy by name: the loader checks the name
    } else if (include && v.is_string()) {
      const std::string path = core::resolve_relative(spec.file, v.get<std::string>());
      if (!files.exists(path)) throw core::InputError(spec.file, at, "no file at \"" + path + "\"");
    } else if (!fits(axis.kind, v)) {
      throw core::InputError(spec.file, at,
                             "expected " +
                                 (target.named ? std::string("a policy's name or the object of its options")
                                               : describe(axis.kind) + (include ? " or a file's path" : "")) +
                                 " (the parameter is " + quoted(nlohmann::json(axis.pointer)) + "), got " +
                                 quoted(v));
    }
  }
}

/// The dimensions of the sweep: each listed or ranged axis alone, the sampled axes together.
std::vector<std::vector<size_t>> dimensions(const SweepSpec& spec) {
  std::vector<std::vector<size_t>> dims;
  bool sampled_placed = false;
  for (size_t a = 0; a < spec.axes.size(); ++a) {
    if (!spec.axes[a].sampled) {
      dims.push_back({a});
    } else if (!sampled_placed) {
      sampled_placed = true;
      dims.emplace_back();
      for (size_t b = a; b < spec.axes.size(); ++b)
        if (spec.axes[b].sampled) dims.back().push_back(b);
    }
  }
  return dims;
}

/// Every value an exclusion names is one of its axis's values (a quantity in any unit it parses in): one
/// of the wrong type, in the wrong unit or not on the axis would silently match nothing.
void check_exclusions(const SweepSpec& spec) {
  for (size_t i = 0; i < spec.exclude.size(); ++i)
    for (const auto& axis : spec.axes) {
      if (!spec.exclude[i].contains(axis.name)) continue;
      const std::string at = core::json_pointer_append("/exclude/" + std::to_string(i), axis.name);
      const nlohmann::json& value = spec.exclude[i].at(axis.name);
      if (axis.sampled)
        throw core::InputError(
            spec.file, at,
            "axis \"" + axis.name + "\" is sampled: its values are drawn, none can be excluded");
      if (std::none_of(axis.values.begin(), axis.values.end(),
                       [&](const nlohmann::json& v) { return same_value(axis.kind, v, value); })) {
        std::string listed;
        for (const auto& v : axis.values) listed += (listed.empty() ? "" : ", ") + quoted(v);
        if (listed.size() > 200) listed = listed.substr(0, 197) + "...";
        throw core::InputError(spec.file, at,
                               "expected one of axis \"" + axis.name + "\"'s values (" + describe(axis.kind) +
                                   ": " + listed + "), got " + quoted(value));
      }
    }
}

bool excluded(const SweepSpec& spec, const std::vector<nlohmann::json>& values) {
  for (const auto& rule : spec.exclude) {
    bool all = true;
    for (size_t a = 0; a < spec.axes.size() && all; ++a)
      if (rule.contains(spec.axes[a].name))
        all = same_value(spec.axes[a].kind, values[a], rule.at(spec.axes[a].name));
    if (all) return true;
  }
  return false;
}

/// Refuses a sweep of more than `max_points` points from its counts alone (values listed, range steps,
/// sample count), before any axis is expanded, sampled or checked.
void check_point_count(const SweepSpec& spec, uint64_t max_points) {
  if (spec.sample_count > max_points)
    throw core::InputError(
        spec.file, "/samples/count",
        "more than " + std::to_string(max_points) + " points (--max-sweep-points raises the bound)");
  uint64_t total = 1;
  bool sampled_counted = false;
  for (const auto& axis : spec.axes) {
    if (axis.sampled && sampled_counted) continue;
    sampled_counted = sampled_counted || axis.sampled;
    const uint64_t n = axis.sampled  ? spec.sample_count
                       : axis.ranged ? static_cast<uint64_t>(std::max<int64_t>(axis.range_steps, 1))
                                     : std::max<uint64_t>(axis.values.size(), 1);
    total = spec.zip ? std::max(total, n) : (total > max_points / n ? max_points + 1 : total * n);
  }
  if (total > max_points)
    throw core::InputError(spec.file, "/axes",
                           "the grid has more than " + std::to_string(max_points) +
                               " points (--max-sweep-points raises the bound)");
}

std::vector<SweepPoint> combine(const SweepSpec& spec, uint64_t max_points) {
  const auto dims = dimensions(spec);
  std::vector<size_t> sizes;
  for (const auto& d : dims) sizes.push_back(spec.axes[d[0]].values.size());
  uint64_t total = 1;
  if (spec.zip) {
    for (size_t d = 1; d < dims.size(); ++d)
      if (sizes[d] != sizes[0])
        throw core::InputError(spec.file, "/combine",
                               "zip needs axes of one length: \"" + spec.axes[dims[0][0]].name + "\" has " +
                                   std::to_string(sizes[0]) + " values, \"" + spec.axes[dims[d][0]].name +
                                   "\" has " + std::to_string(sizes[d]));
    total = sizes[0];
  } else {
    for (size_t s : sizes) {
      if (total > max_points / s)
        throw core::InputError(spec.file, "/axes",
                               "the grid has more than " + std::to_string(max_points) +
                                   " points (--max-sweep-points raises the bound)");
      total *= s;
    }
  }
  std::vector<SweepPoint> points;
  for (uint64_t k = 0; k < total; ++k) {
    std::vector<nlohmann::json> values(spec.axes.size());
    uint64_t rest = k;
    for (size_t d = dims.size(); d-- > 0;) {
      const uint64_t at = spec.zip ? k : rest % sizes[d];
      rest = spec.zip ? rest : rest / sizes[d];
      for (size_t a : dims[d]) values[a] = spec.axes[a].values[at];
    }
    if (!excluded(spec, values)) points.push_back({points.size(), std::move(values)});
  }
  if (points.empty()) throw core::InputError(spec.file, "/exclude", "every point is excluded");
  return points;
}

}  // namespace

std::unique_ptr<core::FileSource> sweep_base_files(const core::FileSource& files, const SweepSpec& spec) {
  std::map<std::string, std::string> inline_base;
  if (spec.base_inline) inline_base[spec.base_path] = spec.base_json.dump(2);
  return std::make_unique<core::OverlayFileSource>(files, std::move(inline_base));
}

SweepPlan SweepPlan::make(const core::FileSource& files, SweepSpec spec, const LoadLimits& limits,
                          const Catalog& catalog) {
  SweepPlan plan;
  plan.limits = limits;
  check_point_count(spec, limits.max_sweep_points);
  for (const auto& p : catalog.policies.plugins) plan.plugins.push_back(p.file);
  const auto base_files = sweep_base_files(files, spec);
  plan.base_resolved = ScenarioLoader(*base_files, catalog, limits).load(spec.base_path).resolved;
  for (auto& axis : spec.axes) {
    ScenarioPatch patch(*base_files, spec.base_path, plan.base_resolved);
    PatchTarget target;
    try {
      target = patch.locate(axis.pointer);
    } catch (const std::invalid_argument& e) {
      throw core::InputError(spec.file, axis.where + "/pointer", e.what());
    }
    const nlohmann::json& base_value = plan.base_resolved.at(nlohmann::json::json_pointer(axis.pointer));
    axis.kind = sweep_value_kind(base_value);
    if (!target.present) {  // a default: set the base's own value, which any settable parameter accepts
      patch.set(axis.pointer, base_value, spec.file);
      try {
        core::OverlayFileSource probe(*base_files, patch.files());
        ScenarioLoader(probe, catalog, limits).load(spec.base_path);
      } catch (const core::InputError& e) {
        throw core::InputError(
            spec.file, axis.where + "/pointer",
            "\"" + axis.pointer + "\" is not a parameter a file sets (setting it: " + e.message() + ")");
      }
    }
    if (axis.ranged) expand_range(spec, axis);
    if (!axis.ranged && !axis.sampled) check_values(files, spec, axis, target);
  }
  if (spec.sample_count > 0) draw_samples(spec);
  check_exclusions(spec);
  plan.points = combine(spec, limits.max_sweep_points);
  plan.spec = std::move(spec);
  return plan;
}

nlohmann::json SweepPlan::to_json() const {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& a : spec.axes)
    axes.push_back({{"name", a.name}, {"pointer", a.pointer}, {"kind", static_cast<int>(a.kind)}});
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : this->points) points.push_back(p.values);
  return {{"file", spec.file},
          {"name", spec.name},
          {"spec", spec.resolved},
          {"base_path", spec.base_path},
          {"base_inline", spec.base_inline},
          {"base_json", spec.base_json},
          {"base_resolved", base_resolved},
          {"axes", axes},
          {"points", points},
          {"plugins", plugins},
          {"limits",
           {{"max_machine_nodes", limits.max_machine_nodes},
            {"max_trace_ops", limits.max_trace_ops},
            {"max_sweep_points", limits.max_sweep_points}}}};
}

SweepPlan SweepPlan::from_json(const nlohmann::json& j) {
  SweepPlan plan;
  plan.spec.file = j.at("file");
  plan.spec.name = j.at("name");
  plan.spec.resolved = j.at("spec");
  plan.spec.base_path = j.at("base_path");
  plan.spec.base_inline = j.at("base_inline");
  plan.spec.base_json = j.at("base_json");
  plan.base_resolved = j.at("base_resolved");
  for (const auto& a : j.at("axes")) {
    SweepAxis axis;
    axis.name = a.at("name");
    axis.pointer = a.at("pointer");
    axis.kind = static_cast<SweepValueKind>(a.at("kind").get<int>());
    plan.spec.axes.push_back(std::move(axis));
  }
  plan.limits = {j.at("limits").at("max_machine_nodes"), j.at("limits").at("max_trace_ops"),
                 j.at("limits").at("max_sweep_points")};
  plan.plugins = j.at("plugins").get<std::vector<std::string>>();
  for (const auto& values : j.at("points"))
    plan.points.push_back({plan.points.size(), values.get<std::vector<nlohmann::json>>()});
  return plan;
}

Scenario load_sweep_point(const core::FileSource& files, const SweepPlan& plan, uint64_t index,
                          const LoadLimits& limits, const Catalog& catalog) {
  const SweepPoint& point = plan.points.at(index);
  const auto base_files = sweep_base_files(files, plan.spec);
  ScenarioPatch patch(*base_files, plan.spec.base_path, plan.base_resolved);
  std::vector<size_t> order(plan.spec.axes.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_partition(order.begin(), order.end(), [&](size_t a) {
    return patch.names_file(plan.spec.axes[a].pointer, point.values[a]);
  });
  for (const size_t a : order) {
    try {
      patch.set(plan.spec.axes[a].pointer, point.values[a], plan.spec.file);
    } catch (const std::invalid_argument& e) {
      throw core::InputError(plan.spec.file, "/axes/" + std::to_string(a) + "/pointer", e.what());
    }
  }
  core::OverlayFileSource point_files(*base_files, patch.files());
  Scenario s = ScenarioLoader(point_files, catalog, limits).load(plan.spec.base_path);
  for (size_t a = 0; a < plan.spec.axes.size(); ++a) {
    const SweepAxis& axis = plan.spec.axes[a];
    const nlohmann::json& got = s.resolved.at(nlohmann::json::json_pointer(axis.pointer));
    if (point.values[a].is_string() && !got.is_string()) continue;  // a file named in place of a model
    if (!same_value(axis.kind, got, point.values[a]))
      throw core::InputError(plan.spec.file, "/axes/" + std::to_string(a),
                             "set to " + quoted(point.values[a]) + ", \"" + axis.pointer + "\" resolved to " +
                                 quoted(got) + " (zettasim derives it from other values)");
  }
  return s;
}

}  // namespace zs::scenario
