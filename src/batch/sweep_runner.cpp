// `zettasim sweep`: plans a sweep, runs its unfinished points as processes and writes the results file.
#include "batch/sweep_runner.hpp"

#include <filesystem>
#include <fstream>
#include <thread>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_point_run.hpp"
#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "output/sweep_table.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/sweep_plan.hpp"

namespace zs::batch {
namespace fs = std::filesystem;
namespace {

/// Refuses to write over `path` unless it is absent, was written by a sweep (`ours`), or --force; a
/// link or a folder is never replaced.
void check_replaceable(const fs::path& path, const char* option, bool force, bool (*ours)(const fs::path&)) {
  std::error_code ec;
  const auto status = fs::symlink_status(path, ec);
  if (ec || !fs::exists(status)) return;
  if (fs::is_symlink(status) || !fs::is_regular_file(status))
    throw core::InputError(option, "",
                           "\"" + path.string() + "\" is a " +
                               (fs::is_directory(status) ? "folder" : "link or special file") +
                               ", expected a file's path (it is never replaced)");
  if (!force && !ours(path))
    throw core::InputError(option, "",
                           "\"" + path.string() +
                               "\" exists and a sweep did not write it: choose "
                               "another path, or --force to replace it");
}

bool is_sweep_csv(const fs::path& path) {
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  return first.rfind("point,", 0) == 0;
}

/// Whether `journal` (an existing folder) is a sweep's journal: it holds the plan, or a start killed
/// before writing it left only the journal's own empty folders and temporaries.
bool is_journal(const fs::path& journal) {
  std::error_code ec;
  if (fs::exists(journal / "plan.json", ec)) return true;
  for (const auto& entry : fs::directory_iterator(journal, ec)) {
    const std::string name = entry.path().filename().string();
    const bool own_folder = (name == "points" || name == "logs" || name == "slurm") &&
                            entry.is_directory(ec) && fs::is_empty(entry.path(), ec);
    if (!own_folder && name.find(".tmp-") == std::string::npos) return false;
  }
  return true;
}

/// The results file: --out, or results/NAME.h5; refused when it has no folder to go in, or when it would
/// replace what a sweep did not write.
fs::path results_file(const SweepOptions& options, const scenario::SweepPlan& plan) {
  fs::path out = options.out.empty() ? fs::path("results") / (plan.spec.name + ".h5") : fs::path(options.out);
  if (options.out.empty()) fs::create_directories(out.parent_path());
  std::error_code ec;
  const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  if (!fs::is_directory(parent, ec))
    throw core::InputError(
        "--out", "", "no folder \"" + parent.string() + "\" to write \"" + out.filename().string() + "\" in");
  check_replaceable(out, "--out", options.force,
                    [](const fs::path& p) { return output::is_sweep_hdf5(p.string()); });
  if (!options.csv.empty()) check_replaceable(options.csv, "--csv", options.force, &is_sweep_csv);
  const fs::path journal = journal_dir(out);
  if (fs::exists(journal, ec) && (!fs::is_directory(journal, ec) || !is_journal(journal)))
    throw core::InputError("--out", "",
                           "\"" + journal.string() +
                               "\" exists and is not a sweep's journal: it is "
                               "never replaced; choose another --out");
  return out;
}

/// The sweep file's Slurm settings with those set on the command line in their place.
SlurmOptions slurm_options(const scenario::SweepSlurm& file, const SlurmOptions& given) {
  SlurmOptions o{file.partition, file.time_limit, file.account, file.options, file.tasks};
  if (!given.partition.empty()) o.partition = given.partition;
  if (!given.time_limit.empty()) o.time_limit = given.time_limit;
  if (!given.account.empty()) o.account = given.account;
  if (given.tasks > 0) o.tasks = given.tasks;
  o.extra.insert(o.extra.end(), given.extra.begin(), given.extra.end());
  return o;
}

}  // namespace

SweepOutcome run_sweep(const core::FileSource& files, const SweepOptions& options,
                       std::ostream& progress_out) {
  scenario::SweepSpec spec = scenario::SweepSpec::load(files, options.spec);
  scenario::Catalog catalog;
  plugin::load_plugins(options.plugins, catalog);
  plugin::load_plugins(
      scenario::scenario_plugin_files(*scenario::sweep_base_files(files, spec), spec.base_path), catalog);
  scenario::SweepPlan plan = scenario::SweepPlan::make(files, std::move(spec), options.limits, catalog);
  const fs::path out = results_file(options, plan);
  const fs::path dir = journal_dir(out);
  if (options.resume && SweepJournal::holds_another(dir, plan))
    throw core::InputError("--resume", "",
                           dir.string() +
                               " holds another sweep's points (a changed spec, base or zettasim): "
                               "run without --resume to discard them and start afresh");
  SweepJournal journal(dir, plan);
  if (journal.restarted() && !options.quiet)
    progress_out << "sweep: " << dir.string() << " held another sweep's points (a changed spec, base or "
                 << "zettasim); they were discarded\n";
  const std::vector<uint64_t> pending = journal.pending();
  SweepOutcome outcome;
  outcome.out = out.string();
  outcome.points = plan.points.size();
  outcome.resumed = plan.points.size() - pending.size();
  SweepProgress progress(progress_out, plan.points.size(), outcome.resumed, options.terminal, options.quiet);
  if (options.slurm) {
    run_points_on_slurm(journal, pending, options.command,
                        slurm_options(plan.spec.slurm, options.slurm_options), progress);
  } else {
    const unsigned jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
    run_points_locally(journal, pending, options.command, jobs, progress);
  }
  progress.done();

  std::vector<nlohmann::json> records;
  for (const auto& p : plan.points) {
    auto r = journal.record(p.index);
    if (!r)
      throw std::runtime_error("point " + std::to_string(p.index) + " has no record in " + dir.string());
    const std::string status = r->at("status");
    outcome.ok += status == "ok";
    outcome.invalid += status == "invalid";
    outcome.failed += status == "failed";
    r->erase("retry");
    records.push_back(std::move(*r));
  }
  const output::SweepTable table = output::sweep_table(plan, records);
  output::write_sweep_hdf5(out.string(), plan, table);
  if (!options.csv.empty()) core::write_file_atomically(options.csv, output::sweep_csv(table));
  return outcome;
}

void run_journalled_task(const std::string& journal_dir, uint64_t task, uint64_t tasks,
                         const PointCommand& command, unsigned jobs) {
  run_slurm_task(journal_dir, task, tasks, command, jobs);
}

void run_journalled_point(const std::string& journal_dir, uint64_t index) {
  const SweepJournal journal(journal_dir);
  if (index >= journal.plan().points.size())
    throw std::runtime_error("the sweep has no point " + std::to_string(index));
  core::DiskFileSource files;
  scenario::Catalog catalog;
  nlohmann::json record;
  try {
    plugin::load_plugins(journal.plan().plugins, catalog);
    record = run_sweep_point(files, journal.plan(), index, journal.plan().limits, catalog);
  } catch (const core::InputError& e) {  // a plugin that no longer loads: the point is invalid, said why
    record = {{"point", index}, {"status", "invalid"}, {"error", e.what()}};
  }
  journal.write(index, record);
}

}  // namespace zs::batch
