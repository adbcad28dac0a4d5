// `zettasim sweep` and the point runner it starts: read the options, call the batch library, print.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include "batch/plan_search_run.hpp"
#include "batch/sweep_runner.hpp"
#include "cli/commands.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/slurm_values.hpp"
#include "core/units.hpp"
#include "output/search_report.hpp"

namespace zs::cli {
namespace {

/// This executable's `sweep-point`, which runs one point of a journalled sweep.
batch::PointCommand self_command() {
  return {std::filesystem::read_symlink("/proc/self/exe").string(), {"sweep-point"}};
}

/// The command line's sbatch values in Slurm's grammars, before anything runs.
void check_slurm_options(const batch::SlurmOptions& o) {
  if (!o.partition.empty())
    core::require_slurm_value(core::partition_problem(o.partition), o.partition, "--partition");
  if (!o.time_limit.empty())
    core::require_slurm_value(core::time_limit_problem(o.time_limit), o.time_limit, "--time-limit");
  if (!o.account.empty()) core::require_slurm_value(core::account_problem(o.account), o.account, "--account");
  for (const auto& option : o.extra)
    core::require_slurm_value(core::sbatch_option_problem(option), option, "--sbatch-option");
}

/// The --backend value: "local" or "slurm".
void check_backend(const std::string& backend) {
  if (backend != "local" && backend != "slurm")
    throw core::InputError("--backend", "", "unknown backend \"" + backend + "\" (known: local, slurm)");
}

}  // namespace

int run_sweep(const SweepOptions& opt, std::ostream& out) {
  check_backend(opt.backend);
  batch::SweepOptions o;
  o.spec = opt.spec;
  o.out = opt.out;
  o.csv = opt.csv;
  o.jobs = opt.jobs;
  o.resume = opt.resume;
  o.quiet = opt.quiet;
  o.force = opt.force;
  o.terminal = ::isatty(2) != 0;
  o.command = self_command();
  o.limits = opt.limits;
  o.plugins = opt.plugins;
  o.slurm = opt.backend == "slurm";
  o.slurm_options = {opt.partition, opt.time_limit, opt.account, opt.sbatch_options, opt.tasks};
  check_slurm_options(o.slurm_options);
  core::DiskFileSource files;
  const batch::SweepOutcome r = batch::run_sweep(files, o, std::cerr);
  out << "sweep: " << r.points << " points (" << r.ok << " ok, " << r.invalid << " invalid, " << r.failed
      << " failed; " << r.resumed << " from an earlier run)\nresults: " << r.out
      << (opt.csv.empty() ? "" : " and " + opt.csv) << "\n";
  return 0;
}

int run_search(const SearchOptions& opt, std::ostream& out) {
  check_backend(opt.backend);
  const auto objective = search::objectives().find(opt.objective);
  if (!objective)
    throw core::InputError("--objective", "",
                           "unknown objective \"" + opt.objective + "\" (known: time, energy, cost, pareto)");
  batch::SearchOptions o;
  o.scenario = opt.scenario;
  o.out = opt.out;
  o.objective = *objective;
  o.top = opt.top;
  if (!opt.budget.empty()) {
    try {
      o.budget_s = core::parse_seconds(opt.budget).value();
    } catch (const std::exception& e) {
      throw core::InputError("--budget", "", "expected a duration such as 10min, got \"" + opt.budget + "\"");
    }
    if (!(o.budget_s > 0)) throw core::InputError("--budget", "", "expected a positive duration");
  }
  o.jobs = opt.jobs;
  o.slurm = opt.backend == "slurm";
  o.slurm_options = {opt.partition, opt.time_limit, opt.account, opt.sbatch_options, 0};
  check_slurm_options(o.slurm_options);
  o.quiet = opt.quiet;
  o.force = opt.force;
  o.terminal = ::isatty(2) != 0;
  o.command = self_command();
  o.plugins = opt.plugins;
  o.limits = opt.limits;
  core::DiskFileSource files;
  const batch::SearchOutcome r = batch::run_search(files, o, std::cerr);
  out << output::search_report_text(r.result) << "results: " << r.out
      << "/ (search.json, report.txt, tier1.csv" << (r.result.tier2 ? ", finalists.csv" : "")
      << (r.result.best ? ", best.scenario.json" : "") << ")\n";
  return 0;
}

int run_sweep_chunk(const SweepChunkOptions& opt, std::ostream&) {
  const char* cpus = std::getenv("SLURM_CPUS_PER_TASK");
  const unsigned jobs = cpus != nullptr ? std::max(1, std::atoi(cpus)) : 1;
  batch::run_journalled_task(opt.journal, opt.task, opt.tasks, self_command(), jobs);
  return 0;
}

int run_sweep_point(const SweepPointOptions& opt, std::ostream&) {
  batch::run_journalled_point(opt.journal, opt.index);
  return 0;
}

}  // namespace zs::cli
