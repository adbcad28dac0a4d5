// `zettasim plan`: a real job's layout from the policy library, and with --predict the engine's figures.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include "batch/plan_search_run.hpp"
#include "cli/commands.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/units.hpp"
#include "output/results_folder.hpp"
#include "output/run_record.hpp"
#include "output/search_report.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "study/goodput_study.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::cli {
namespace {

/// What --predict adds to plan.json: the engine's iteration on the plan's placement, and the goodput
/// study's ETTR when the scenario has a reliability section.
nlohmann::json predict(const scenario::Scenario& s, const planner::JobPlan& plan,
                       const scenario::Catalog& catalog, std::string& lines) {
  const engine::SimulationResult r = study::simulate_scenario(s, plan.placement, catalog.policies);
  const nlohmann::json summary = output::summary_json(s, r);
  nlohmann::json p = {
      {"iteration_time_s", summary.at("iteration_time_s")},
      {"mfu", summary.at("mfu")},
      {"tokens_per_second", summary.at("tokens_per_second")},
      {"exposed_communication_by_communicator_s",
       summary.at("critical_rank_exposed_communication_by_communicator_s")},
      {"collective_wait_s", summary.at("critical_rank_breakdown_s").at("collective_wait")},
      {"fidelity", summary.at("fidelity")},
      {"collective_algorithms", r.replay.collective_algorithms},
      {"memory_per_rank",
       s.resolved.at("derived").at("workload").value("memory_per_rank", nlohmann::json::array())},
      {"approximations", summary.at("approximations")}};
  char figure[64];
  std::snprintf(figure, sizeof figure, "%.1f %%", 100 * summary.at("mfu").get<double>());
  lines += "  predicted iteration       " + core::display(core::Seconds(r.replay.iteration_time)) + ", MFU " +
           figure + "\n";
  for (const auto& [comm, seconds] :
       summary.at("critical_rank_exposed_communication_by_communicator_s").items())
    lines += "    exposed on " + comm + std::string(comm.size() < 14 ? 14 - comm.size() : 0, ' ') +
             core::display(core::Seconds(seconds.get<double>())) + "\n";
  lines += "    waiting in collectives   " +
           core::display(core::Seconds(r.replay.critical().collective_wait.value())) + "\n";
  if (s.reliability) {
    // The study holds the scenario it simulates again: a copy of the planned job's.
    const study::GoodputStudy g =
        study::run_goodput_study(std::make_shared<const scenario::Scenario>(s), s.file, {}, catalog.policies);
    p["ettr"] = g.summary.ettr.mean;
    p["ettr_half_width"] = g.summary.ettr.half_width;
    p["goodput_seeds"] = g.seeds;
    std::snprintf(figure, sizeof figure, "%.4f", g.summary.ettr.mean);
    lines +=
        "  predicted ETTR            " + std::string(figure) + " (" + std::to_string(g.seeds) + " seeds)\n";
  }
  return p;
}

/// The scenario of the best plan `zettasim search` finds for `scenario` (its defaults, the results in
/// results/<name>-search); what the search prints goes to `out` unless quiet.
std::string searched_scenario(const PlanOptions& opt, std::ostream& out) {
  batch::SearchOptions o;
  o.scenario = opt.scenario;
  o.top = opt.search_top;
  o.megatron_expressible = true;
  o.quiet = opt.folder.quiet;
  o.terminal = ::isatty(2) != 0;
  o.command = {std::filesystem::read_symlink("/proc/self/exe").string(), {"sweep-point"}};
  o.plugins = opt.plugins;
  o.limits = opt.limits;
  const batch::SearchOutcome r = batch::run_search(core::DiskFileSource(), o, std::cerr);
  if (!r.result.best)
    throw core::InputError(
        opt.scenario, "",
        "the search found no plan that ran through the engine (see " + r.out + "/report.txt)");
  if (!opt.folder.quiet) out << output::search_report_text(r.result) << "\n";
  return r.out + "/best.scenario.json";
}

}  // namespace

int run_plan(const PlanOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  scenario::Catalog catalog;
  plugin::load_plugins(opt.plugins, catalog);
  const std::string path = opt.search ? searched_scenario(opt, out) : opt.scenario;
  scenario::Scenario s = plugin::load_scenario(files, path, catalog, opt.limits);
  planner::make_nccl_job(s);
  const auto dir = output::results_folder(opt.folder.out_dir, s.name + "-plan", opt.folder.force);
  planner::JobPlan plan = planner::make_job_plan(s, opt.plan, catalog.policies);
  std::string prediction_lines;
  nlohmann::json prediction;
  if (opt.predict) {
    prediction = predict(s, plan, catalog, prediction_lines);
    planner::apply_iteration_time(plan, prediction.at("iteration_time_s").get<double>(), *s.megatron);
  }
  nlohmann::json doc = planner::plan_json(plan);
  if (opt.predict) doc["prediction"] = prediction;
  planner::write_plan_folder(dir, planner::plan_files(plan, doc), opt.folder.force);
  if (!opt.folder.quiet) out << planner::plan_summary(plan) << prediction_lines;
  out << "\nplan: " << dir.string() << "/ (hostfile, ranks.json, launch.sbatch, plan.json)\n";
  return 0;
}

}  // namespace zs::cli
