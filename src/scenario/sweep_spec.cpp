// Reads a sweep file: a base scenario, its axes, how they combine and which points are left out.
#include "scenario/sweep_spec.hpp"

#include <cctype>
#include <map>
#include <set>

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"
#include "core/slurm_values.hpp"

namespace zs::scenario {

using core::Param;

namespace {

/// How an axis's values are spaced or drawn between its bounds.
enum class AxisScale : uint8_t { kLinear, kLog };
const core::ChoiceNames<AxisScale>& axis_scales() {
  static const core::ChoiceNames<AxisScale> names{{AxisScale::kLinear, "linear"}, {AxisScale::kLog, "log"}};
  return names;
}
/// How the sampled axes are drawn together.
enum class SampleMethod : uint8_t { kRandom, kLatinHypercube };
const core::ChoiceNames<SampleMethod>& sample_methods() {
  static const core::ChoiceNames<SampleMethod> names{{SampleMethod::kRandom, "random"},
                                                     {SampleMethod::kLatinHypercube, "latin-hypercube"}};
  return names;
}
/// How the axes' values combine into points.
enum class AxisCombination : uint8_t { kGrid, kZip };
const core::ChoiceNames<AxisCombination>& axis_combinations() {
  static const core::ChoiceNames<AxisCombination> names{{AxisCombination::kGrid, "grid"},
                                                        {AxisCombination::kZip, "zip"}};
  return names;
}

}  // namespace

const core::ParamTable& sweep_range_params() {
  static const core::ParamTable table(
      "sweep range", "evenly spaced values of an axis, ends included",
      {Param::object("from", "a number, or a quantity in the parameter's unit", "the first value"),
       Param::object("to", "a number, or a quantity in the parameter's unit", "the last value"),
       Param::integer("steps", 2, 100000, "how many values, ends included"),
       Param::choice("scale", axis_scales().names(), "equal differences (linear) or equal ratios (log)")
           .or_default("linear")});
  return table;
}

const core::ParamTable& sweep_sample_params() {
  static const core::ParamTable table(
      "sweep sample", "an axis drawn at random between bounds, with the sweep's other sampled axes",
      {Param::object("from", "a number, or a quantity in the parameter's unit", "the smallest value"),
       Param::object("to", "a number, or a quantity in the parameter's unit", "the largest value"),
       Param::choice("scale", axis_scales().names(), "uniform (linear) or log-uniform (log)")
           .or_default("linear")});
  return table;
}

const core::ParamTable& sweep_axis_params() {
  static const core::ParamTable table(
      "sweep axis", "one parameter a sweep varies; exactly one of values, range and sample",
      {Param::text("name", "the axis's column in the results: letters, digits and _, starting with a letter"),
       Param::text("pointer",
                   "the parameter's JSON pointer in the resolved configuration (config.json), "
                   "e.g. \"/workload/tensor_parallel\" or \"/machine/models/gpu/hbm_capacity\""),
       Param::list("values",
                   "values as the parameter is written (a model's entry also takes a model file's path)",
                   "the values, in order")
           .optional(),
       Param::object("range", sweep_range_params(), "evenly spaced values").optional(),
       Param::object("sample", sweep_sample_params(), "values drawn at random (see samples)").optional()});
  return table;
}

const core::ParamTable& sweep_samples_params() {
  static const core::ParamTable table(
      "sweep samples", "how the sampled axes are drawn, together",
      {Param::integer("count", 1, 1000000, "how many points to draw"),
       Param::choice("method", sample_methods().names(),
                     "independent draws (random), or one draw in each of count equal strata of every axis "
                     "(latin-hypercube)")
           .or_default("latin-hypercube")});
  return table;
}

namespace {

/// The sbatch values of a sweep file's "slurm" section in Slurm's grammars (core/slurm_values.hpp).
void check_slurm_values(const SweepSlurm& slurm, const std::string& file, const std::string& at) {
  if (!slurm.partition.empty())
    core::require_slurm_value(core::partition_problem(slurm.partition), slurm.partition, file,
                              at + "/partition");
  if (!slurm.time_limit.empty())
    core::require_slurm_value(core::time_limit_problem(slurm.time_limit), slurm.time_limit, file,
                              at + "/time_limit");
  if (!slurm.account.empty())
    core::require_slurm_value(core::account_problem(slurm.account), slurm.account, file, at + "/account");
}

}  // namespace

const core::ParamTable& sweep_slurm_params() {
  static const core::ParamTable table(
      "sweep slurm",
      "what sbatch is given when the sweep runs on Slurm (--backend slurm); options override it",
      {Param::text("partition", "the partition (sbatch --partition)").optional(),
       Param::text("time_limit",
                   "each array task's time limit in Slurm's format, e.g. \"2:00:00\" (sbatch --time)")
           .optional(),
       Param::text("account", "the account charged (sbatch --account)").optional(),
       Param::list("options", "strings", "further sbatch options, e.g. [\"--mem=8G\", \"--qos=long\"]")
           .optional(),
       Param::integer("tasks", 1, 100000,
                      "array tasks the points are shared among; left out, one per point "
                      "(at most 1000)")
           .optional()});
  return table;
}

const core::ParamTable& sweep_params() {
  static const core::ParamTable table(
      "sweep", "many scenarios in one batch: a base scenario and the parameters varied over it",
      {Param::file_kind(core::FileKind::kSweep, "a sweep file"),
       Param::text("name", "the sweep's name; results go to results/NAME.h5 (one safe path component)"),
       Param::text("description", "one line: what is asked").or_default(""),
       Param::integer("seed", 0, INT64_MAX, "seed of the sampled axes' draws").or_default(1),
       Param::object("base", "a scenario file's path (relative to this file), or the scenario inline",
                     "the scenario every point starts from"),
       Param::list("axes", sweep_axis_params(), "the parameters varied, in order (the first varies slowest)"),
       Param::choice("combine", axis_combinations().names(),
                     "every combination of the axes' values (grid), or their i-th values together (zip)")
           .or_default("grid"),
       Param::object("samples", sweep_samples_params(), "how sampled axes are drawn; needed when one is")
           .optional(),
       Param::list("exclude", "objects: axis name → value",
                   "points to leave out: a point whose values match every entry of one object")
           .optional(),
       Param::object("slurm", sweep_slurm_params(), "sbatch settings for --backend slurm").optional()});
  return table;
}

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || s.size() > 64 || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

void read_bounds(core::ParamReader& in, nlohmann::json& from, nlohmann::json& to) {
  for (const char* key : {"from", "to"}) {
    const nlohmann::json& v = in.value(key);
    if (!v.is_number() && !v.is_string())
      throw in.error(key, "expected a number, or a quantity with its unit such as \"80GiB\"");
    in.record(key, v);
    (std::string(key) == "from" ? from : to) = v;
  }
}

SweepAxis read_axis(core::ParamReader& in) {
  SweepAxis axis;
  axis.where = in.pointer();
  axis.name = in.get<std::string>("name");
  if (!is_identifier(axis.name))
    throw in.error("name", "expected letters, digits and _ starting with a letter (at most 64), got \"" +
                               axis.name + "\"");
  axis.pointer = in.get<std::string>("pointer");
  if (axis.pointer.empty() || axis.pointer[0] != '/')
    throw in.error("pointer", "expected a JSON pointer starting with \"/\", got \"" + axis.pointer + "\"");
  const int forms = in.has("values") + in.has("range") + in.has("sample");
  if (forms != 1) throw in.error("expected exactly one of \"values\", \"range\" and \"sample\"");
  if (in.has("values")) {
    const nlohmann::json& values = in.list("values");
    if (values.empty()) throw in.error("values", "expected at least one value, got an empty array");
    for (const auto& v : values) {
      if (v.is_null()) throw in.error("values", "null is not a value");
      axis.values.push_back(v);
    }
  } else if (in.has("range")) {
    core::ParamReader range = in.part("range");
    axis.ranged = true;
    read_bounds(range, axis.range_from, axis.range_to);
    axis.range_steps = range.get<int64_t>("steps");
    axis.range_log = range.get_choice("scale", axis_scales()) == AxisScale::kLog;
    range.finish();
  } else {
    core::ParamReader sample = in.part("sample");
    axis.sampled = true;
    read_bounds(sample, axis.sample_from, axis.sample_to);
    axis.sample_log = sample.get_choice("scale", axis_scales()) == AxisScale::kLog;
    sample.finish();
  }
  in.finish();
  return axis;
}

}  // namespace

SweepSpec SweepSpec::load(const core::FileSource& files, const std::string& path) {
  const nlohmann::json doc = files.read_json(path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (a sweep file)");
  core::ParamReader in(sweep_params(), core::JsonObject(doc, path, ""));
  SweepSpec spec;
  spec.file = path;
  in.get<std::string>("kind");  // the table's constant
  in.get<std::string>("name");
  spec.name = in.json().file_name("name");
  spec.description = in.get<std::string>("description");
  spec.seed = static_cast<uint64_t>(in.get<int64_t>("seed"));
  const nlohmann::json& base = in.value("base");
  if (base.is_string()) {
    spec.base_path = core::resolve_relative(path, base.get<std::string>());
    if (!files.exists(spec.base_path))
      throw in.error("base", "no scenario file at \"" + spec.base_path + "\"");
  } else if (base.is_object()) {
    spec.base_inline = true;
    spec.base_path = path + "#base";
    spec.base_json = base;
  } else {
    throw in.error("base", "expected a scenario file's path or the scenario inline (an object)");
  }
  in.record("base", base);
  std::set<std::string> names;
  std::map<std::string, std::string> axis_of_pointer;
  for (auto& axis_in : in.parts("axes")) {
    SweepAxis axis = read_axis(axis_in);
    if (!names.insert(axis.name).second)
      throw axis_in.error("name", "a second axis named \"" + axis.name + "\"");
    for (const char* column : {"point", "status", "error"})
      if (axis.name == column)
        throw axis_in.error("name", "\"" + axis.name +
                                        "\" is a column of the results (point, status, error): "
                                        "name the axis otherwise");
    if (const auto [it, added] = axis_of_pointer.emplace(axis.pointer, axis.name); !added)
      throw axis_in.error("pointer", "axis \"" + it->second + "\" already sets \"" + axis.pointer +
                                         "\": one axis per parameter (list the values together)");
    spec.axes.push_back(std::move(axis));
  }
  if (spec.axes.empty()) throw in.error("axes", "expected at least one axis");
  spec.zip = in.get_choice("combine", axis_combinations()) == AxisCombination::kZip;
  const bool any_sampled =
      std::any_of(spec.axes.begin(), spec.axes.end(), [](const auto& a) { return a.sampled; });
  if (in.has("samples")) {
    core::ParamReader samples = in.part("samples");
    spec.sample_count = static_cast<uint64_t>(samples.get<int64_t>("count"));
    spec.latin_hypercube = samples.get_choice("method", sample_methods()) == SampleMethod::kLatinHypercube;
    samples.finish();
    if (!any_sampled) throw in.error("samples", "no axis is sampled (an axis with \"sample\")");
  } else if (any_sampled) {
    throw in.error("missing required key \"samples\": how many points to draw for the sampled axes");
  }
  if (in.has("exclude")) {
    const nlohmann::json& exclude = in.list("exclude");
    for (size_t i = 0; i < exclude.size(); ++i) {
      const std::string at = in.element_pointer("exclude", i);
      if (!exclude[i].is_object() || exclude[i].empty())
        throw core::InputError(path, at, "expected an object of axis name → value");
      for (const auto& [key, _] : exclude[i].items())
        if (!names.count(key))
          throw core::InputError(path, core::json_pointer_append(at, key),
                                 "no axis is named \"" + key + "\"");
      spec.exclude.push_back(exclude[i]);
    }
  }
  if (in.has("slurm")) {
    core::ParamReader slurm = in.part("slurm");
    for (auto [key, field] :
         {std::pair{"partition", &spec.slurm.partition}, std::pair{"time_limit", &spec.slurm.time_limit},
          std::pair{"account", &spec.slurm.account}})
      if (const auto v = slurm.find<std::string>(key)) *field = *v;
    check_slurm_values(spec.slurm, path, slurm.pointer());
    if (slurm.has("options"))
      spec.slurm.options = slurm.json().strings("options", "an array of sbatch options", "an sbatch option");
    for (size_t i = 0; i < spec.slurm.options.size(); ++i)
      core::require_slurm_value(core::sbatch_option_problem(spec.slurm.options[i]), spec.slurm.options[i],
                                path, slurm.element_pointer("options", i));
    if (slurm.has("options")) slurm.list("options");
    if (const auto tasks = slurm.find<int64_t>("tasks")) spec.slurm.tasks = static_cast<uint64_t>(*tasks);
    slurm.finish();
  }
  in.finish();
  spec.resolved = in.resolved();
  return spec;
}

}  // namespace zs::scenario
