// `zettasim search`: tier 1 over the plan space, tier 2 through the sweep runner, the results folder.
#include "batch/plan_search_run.hpp"

#include <algorithm>
#include <filesystem>

#include "batch/progress_line.hpp"
#include "batch/sweep_journal.hpp"
#include "batch/sweep_runner.hpp"
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/output_file.hpp"
#include "core/staged_directory.hpp"
#include "output/results_folder.hpp"
#include "output/search_report.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/scenario_rebase.hpp"
#include "scenario/search_section.hpp"
#include "workload/megatron_arguments.hpp"

namespace zs::batch {
namespace {

namespace fs = std::filesystem;

/// The plan keys the tier-2 sweep sets on every point, beyond a choice's own (full recomputation of every
/// layer; the defaults otherwise, which a plan without full recomputation may also write).
const std::vector<std::string>& swept_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    const nlohmann::json keys = search::PlanChoice{}.workload_keys();
    for (auto it = keys.begin(); it != keys.end(); ++it) out.push_back(it.key());
    out.insert(out.end(), {"recompute_method", "recompute_layers"});
    return out;
  }();
  return keys;
}

/// A point's values of swept_keys() for a choice.
nlohmann::json point_values(const search::PlanChoice& c) {
  nlohmann::json v = c.workload_keys();
  v["recompute_method"] = "uniform";
  v["recompute_layers"] = 1;
  return v;
}

/// The scenario's plan keys: its resolved workload section's ParallelPlan keys.
nlohmann::json base_plan_keys(const scenario::Scenario& s) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [k, v] : s.resolved.at("workload").items())
    if (workload::ParallelPlan::params().find(k) != nullptr) out[k] = v;
  return out;
}

search::SearchInputs inputs_of(const scenario::Scenario& s, const scenario::Catalog& catalog,
                               const core::FileSource& files) {
  search::SearchInputs in;
  in.model = &s.megatron->model;
  in.base_plan = base_plan_keys(s);
  in.file = s.file;
  in.files = &files;
  in.machine = &s.machine;
  in.ranks = s.trace.mesh.size();
  if (const auto& stack = s.software_stack)
    in.stack = {stack->per_layer_pass(), stack->per_moe_layer_forward(), stack->per_step(),
                stack->per_iteration()};
  in.cost = s.cost ? &*s.cost : nullptr;
  in.policies = &catalog.policies;
  in.collective_options = s.collective_options;
  return in;
}

/// The scenario file as written, for the scenario files the search writes.
nlohmann::json raw_scenario(const core::FileSource& files, const std::string& path) {
  const auto text = files.read(path);
  if (!text) throw core::InputError(path, "", "cannot read the scenario file");
  return nlohmann::json::parse(*text);
}

/// The tier-2 sweep's base: the scenario rebased into `folder`, without the keys that follow from a plan's
/// pipeline (micro-batch groups, an uneven split).
nlohmann::json tier2_base(nlohmann::json raw, const std::string& file, const fs::path& folder) {
  nlohmann::json base = scenario::rebased_scenario(std::move(raw), file, folder.string());
  base["workload"].erase("microbatch_group");
  base["workload"].erase("layers_per_stage");
  return base;
}

struct Tier2Point {
  search::Finalist finalist;
  nlohmann::json values;  ///< swept_keys()' values, then placement and collective
};

nlohmann::json sweep_spec(const std::string& name, const std::vector<Tier2Point>& points) {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& key : swept_keys()) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& p : points) values.push_back(p.values.at(key));
    axes.push_back({{"name", key}, {"pointer", "/workload/" + key}, {"values", values}});
  }
  for (const char* policy : {"placement", "collective"}) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& p : points) values.push_back(p.values.at(policy));
    axes.push_back({{"name", policy}, {"pointer", std::string("/policies/") + policy}, {"values", values}});
  }
  return {{"kind", "sweep"},
          {"name", name},
          {"description", "the finalists of a plan search, and the scenario's own plan first"},
          {"base", "base.scenario.json"},
          {"combine", "zip"},
          {"axes", axes}};
}

std::vector<Tier2Point> tier2_points(const scenario::Scenario& s, const search::SearchInputs& in,
                                     const search::SearchSpace& space, const search::Tier1Result& tier1,
                                     size_t top) {
  std::vector<Tier2Point> points;
  Tier2Point reference;
  reference.finalist.reference = true;
  reference.finalist.candidate.choice = search::choice_of(s.megatron->plan, 0);
  if (auto e = search::estimate_plan(in, s.megatron->plan, s.collective_policy)) {
    reference.finalist.candidate.estimate = *e;
    reference.finalist.estimated = true;
  }
  reference.finalist.placement = s.placement_policy;
  reference.finalist.collective = s.collective_policy;
  reference.values = nlohmann::json::object();
  for (const auto& key : swept_keys()) reference.values[key] = s.resolved.at("workload").at(key);
  points.push_back(std::move(reference));
  for (size_t i = 0; i < tier1.ranked.size() && i < top; ++i)
    for (const auto& placement : space.placement) {
      Tier2Point p;
      p.finalist.candidate = tier1.ranked[i];
      p.finalist.estimated = true;
      p.finalist.placement = placement;
      p.finalist.collective = space.collective.at(tier1.ranked[i].choice.collective);
      p.values = point_values(tier1.ranked[i].choice);
      points.push_back(std::move(p));
    }
  for (auto& p : points) {
    p.values["placement"] = p.finalist.placement;
    p.values["collective"] = p.finalist.collective;
  }
  return points;
}

/// The folder of the tier-2 sweep (its files and journal), kept between runs so that a rerun resumes:
/// OUT.tier2, beside the results.
fs::path tier2_folder(const fs::path& out) {
  fs::path dir = out;
  dir += ".tier2";
  return dir;
}

/// Refuses, before any work, outputs that would replace what the user did not ask to replace: the results
/// folder (output::results_folder's rule, already applied) or the tier-2 folder holding an input, and a
/// tier-2 folder that zettasim did not write (never replaced or written into, whatever --force says).
void check_outputs(const core::FileSource& files, const SearchOptions& o, const fs::path& out) {
  std::vector<std::string> inputs = files.files_read();
  for (const auto& p : o.plugins) inputs.push_back(core::absolute_path(p));
  core::CommandOutputs outputs(inputs);
  outputs.add_folder("--out", out);
  if (o.top == 0) return;
  const fs::path tier2 = tier2_folder(out);
  std::error_code ec;
  const auto status = fs::symlink_status(tier2, ec);
  const bool absent = ec || status.type() == fs::file_type::not_found;
  const bool ours = status.type() == fs::file_type::directory &&
                    (fs::exists(tier2 / core::kOutputMarker) || fs::is_empty(tier2, ec));
  if (!absent && !ours)
    throw core::InputError(tier2.string(), "",
                           "is not a folder zettasim wrote (no " + std::string(core::kOutputMarker) +
                               "), and a search keeps its finalists' sweep there: choose another --out");
  outputs.add_folder("--out", tier2);
}

/// Runs the points through the sweep runner in `dir`; fills each finalist's status and summary.
std::string run_tier2(std::vector<Tier2Point>& points, const std::string& name, const fs::path& dir,
                      const SearchOptions& o, const core::FileSource& files, std::ostream& progress_out) {
  core::write_file_atomically(dir / "finalists.sweep.json", sweep_spec(name, points).dump(2) + "\n");
  SweepOptions so;
  so.spec = (dir / "finalists.sweep.json").string();
  so.out = (dir / "finalists.h5").string();
  so.csv = (dir / "finalists.csv").string();
  so.jobs = o.jobs;
  so.slurm = o.slurm;
  so.slurm_options = o.slurm_options;
  so.quiet = o.quiet;
  so.force = true;  // the files of this folder are the search's own
  so.terminal = o.terminal;
  so.command = o.command;
  so.plugins = o.plugins;
  so.limits = o.limits;
  const SweepOutcome outcome = run_sweep(files, so, progress_out);
  for (size_t i = 0; i < points.size() && i < outcome.records.size(); ++i) {
    const nlohmann::json& r = outcome.records[i];
    search::Finalist& f = points[i].finalist;
    f.ran = status_of(r) == PointStatus::kOk;
    f.status = r.value("status", "");
    f.error = r.value("error", "");
    if (r.contains("summary")) f.summary = r["summary"];
  }
  return files.read(so.csv).value_or("");
}

/// The best finalist's plan as a scenario file written into `folder`.
nlohmann::json searched_scenario(const nlohmann::json& raw, const scenario::Scenario& s,
                                 const search::Finalist& best, const fs::path& folder) {
  nlohmann::json out = scenario::rebased_scenario(raw, s.file, folder.string());
  out.erase("search");
  out["name"] = s.name + "-searched";
  if (best.reference) return out;  // no searched plan beats the scenario's own
  out["description"] =
      "the plan zettasim search found for " + s.name + ": " + best.candidate.choice.describe();
  nlohmann::json& w = out["workload"];
  for (const char* key : {"microbatch_group", "layers_per_stage", "recompute_method", "recompute_layers"})
    w.erase(key);
  w.update(best.candidate.choice.workload_keys());
  if (best.candidate.choice.recompute == workload::Recompute::kFull) {
    w["recompute_method"] = "uniform";
    w["recompute_layers"] = 1;
  }
  if (best.placement != s.placement_policy) out["policies"]["placement"] = best.placement;
  if (best.collective != s.collective_policy) out["policies"]["collective"] = best.collective;
  return out;
}

}  // namespace

SearchOutcome run_search(const core::FileSource& files, const SearchOptions& o, std::ostream& progress_out) {
  scenario::Catalog catalog;
  plugin::load_plugins(o.plugins, catalog);
  const scenario::Scenario s = plugin::load_scenario(files, o.scenario, catalog, o.limits);
  const search::SearchSpace space =
      s.search ? *s.search : scenario::search_space(s, catalog.policies, nullptr);
  const fs::path out = output::results_folder(o.out, s.name + "-search", o.force);
  check_outputs(files, o, out);
  search::SearchInputs in = inputs_of(s, catalog, files);
  if (o.megatron_expressible) {
    const size_t own = workload::megatron_command(*s.megatron).unmapped.size();
    in.admissible = [&s, own](const workload::ParallelPlan& plan) {
      return workload::megatron_command({s.megatron->model, plan}).unmapped.size() <= own;
    };
    in.admissible_rule = "Megatron-LM's arguments";
  }

  SearchOutcome outcome;
  outcome.out = out.string();
  search::SearchResult& r = outcome.result;
  r.scenario = s.name;
  r.file = s.file;
  r.objective = o.objective;
  r.space_combinations = static_cast<uint64_t>(space.combinations());
  {
    ProgressLine progress(progress_out, o.terminal, o.quiet);
    r.tier1 = search::run_tier1(in, space, o.objective, std::max<size_t>(o.top, 64), o.budget_s, &progress);
  }
  const nlohmann::json raw = raw_scenario(files, s.file);
  std::vector<std::pair<std::string, std::string>> written;
  if (o.top > 0 && !r.tier1.ranked.empty()) {
    const fs::path dir = tier2_folder(out);
    fs::create_directories(dir);
    core::write_file_atomically(dir / core::kOutputMarker, "");
    core::write_file_atomically(dir / "base.scenario.json", tier2_base(raw, s.file, dir).dump(2) + "\n");
    std::vector<Tier2Point> points = tier2_points(s, in, space, r.tier1, o.top);
    written.emplace_back("finalists.csv", run_tier2(points, s.name + "-search", dir, o, files, progress_out));
    for (auto& p : points) r.finalists.push_back(std::move(p.finalist));
    r.tier2 = true;
    search::rank_finalists(r);
  }
  written.emplace_back("search.json", output::search_json(r).dump(2) + "\n");
  written.emplace_back("report.txt", output::search_report_text(r));
  written.emplace_back("tier1.csv", output::tier1_csv(r));
  if (r.best)
    written.emplace_back("best.scenario.json",
                         searched_scenario(raw, s, r.finalists[*r.best], out).dump(2) + "\n");
  output::write_results_folder(out, written, o.force);
  return outcome;
}

}  // namespace zs::batch
