// `zettasim sweep`: plans a sweep, runs its unfinished points as processes and writes the results file.
#include "batch/sweep_runner.hpp"

#include <filesystem>
#include <thread>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_point_run.hpp"
#include "core/fingerprint.hpp"
#include "core/input_error.hpp"
#include "core/output_file.hpp"
#include "output/output_formats.hpp"
#include "output/run_record.hpp"
#include "output/sweep_table.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/sweep_plan.hpp"

namespace zs::batch {
namespace fs = std::filesystem;
namespace {

/// The files a sweep writes.
struct SweepOutputs {
  core::OutputFile results;
  std::optional<core::OutputFile> csv;
};

/// Whether `journal` (an existing folder) is a sweep's journal: it holds the marker a journal writes
/// before anything else (core::kOutputMarker), or only what a start killed before the marker was in place
/// leaves: nothing, or the marker's temporary.
bool is_journal(const fs::path& journal) {
  std::error_code ec;
  if (fs::is_regular_file(journal / core::kOutputMarker, ec)) return true;
  const std::string temporary = std::string(core::kOutputMarker) + ".tmp-";
  for (const auto& entry : fs::directory_iterator(journal, ec))
    if (entry.path().filename().string().rfind(temporary, 0) != 0) return false;
  return !ec;
}

/// Where the sweep writes, checked before any point runs under the output-file rule: the results file
/// (--out, or results/NAME.h5), the table (--csv) and the journal folder beside the results; none may be
/// an input, one path twice, or lie inside the journal; an existing journal folder must be a journal.
SweepOutputs sweep_outputs(const SweepOptions& options, const scenario::SweepPlan& plan,
                           const std::vector<std::string>& inputs) {
  fs::path out = options.out.empty() ? fs::path("results") / (plan.spec.name + ".h5") : fs::path(options.out);
  if (options.out.empty()) fs::create_directories(out.parent_path());
  core::CommandOutputs outputs(inputs);
  SweepOutputs o{
      output::output_file(output::OutputFormat::kSweepHdf5, "--out", out.string(), options.force, inputs),
      std::nullopt};
  outputs.add_file(o.results);
  if (!options.csv.empty()) {
    o.csv = output::output_file(output::OutputFormat::kSweepCsv, "--csv", options.csv, options.force, inputs);
    outputs.add_file(*o.csv);
  }
  const fs::path journal = journal_dir(out);
  outputs.add_folder("--out (its journal " + journal.string() + ")", journal);
  std::error_code ec;
  if (fs::exists(fs::symlink_status(journal, ec)) && (fs::is_symlink(fs::symlink_status(journal, ec)) ||
                                                      !fs::is_directory(journal, ec) || !is_journal(journal)))
    throw core::InputError("--out", "",
                           "\"" + journal.string() +
                               "\" exists and is not a sweep's journal: it is "
                               "never replaced; choose another --out");
  return o;
}

/// Refuses an axis named like a metric column of the results (a scalar of summary.json), before any point
/// runs: the table could not hold both.
void check_axis_names(const scenario::SweepSpec& spec) {
  for (const auto& axis : spec.axes)
    for (const char* key : output::kSummaryScalarKeys)
      if (axis.name == key)
        throw core::InputError(spec.file, axis.where + "/name",
                               "\"" + axis.name + "\" is a metric column of the results (summary.json's \"" +
                                   key + "\"): name the axis otherwise");
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
  check_axis_names(spec);
  scenario::SweepPlan plan = scenario::SweepPlan::make(files, std::move(spec), options.limits, catalog);
  std::vector<std::string> inputs = files.files_read();
  for (const auto& p : plan.plugins) inputs.push_back(core::absolute_path(p));
  const SweepOutputs outputs = sweep_outputs(options, plan, inputs);
  const fs::path out = outputs.results.path;
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
    const PointStatus status = status_of(*r);
    outcome.ok += status == PointStatus::kOk;
    outcome.invalid += status == PointStatus::kInvalid;
    outcome.failed += status == PointStatus::kFailed;
    r->erase("retry");
    r->erase("inputs");
    records.push_back(std::move(*r));
  }
  const output::SweepTable table = output::sweep_table(plan, records);
  core::check_output_file(outputs.results);
  output::write_sweep_hdf5(out.string(), plan, table);
  if (outputs.csv) core::write_output_file(*outputs.csv, output::sweep_csv(table));
  outcome.records = std::move(records);
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
    record = {
        {"point", index}, {"status", point_statuses().name(PointStatus::kInvalid)}, {"error", e.what()}};
  }
  // Every file the point read, so that a resumed sweep runs it again when one of them changed.
  std::vector<std::string> read = files.files_read();
  read.insert(read.end(), journal.plan().plugins.begin(), journal.plan().plugins.end());
  nlohmann::json inputs = nlohmann::json::object();
  for (const auto& path : read) inputs[path] = core::file_fingerprint(path).value_or("unreadable");
  record["inputs"] = std::move(inputs);
  journal.write(index, record);
}

}  // namespace zs::batch
