// zettasim subcommands: one function adding each, and run_cli dispatching to them.
#include "cli/cli_app.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <sstream>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "core/input_error.hpp"
#include "core/version.hpp"
#include "engine/engine_value_error.hpp"
#include "output/parameter_reference.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/catalog.hpp"
#include "scenario/parameter_tables.hpp"

namespace zs::cli {
namespace {

/// The options that raise (or lower) the bounds on the machine and trace a scenario may ask for.
void add_limit_options(CLI::App* command, scenario::LoadLimits& limits) {
  command
      ->add_option("--max-machine-nodes", limits.max_machine_nodes,
                   "Refuse a machine of more nodes: units, switches and memory pools (default 2^25)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  command
      ->add_option("--max-trace-ops", limits.max_trace_ops,
                   "Refuse a generated trace of more ops, all pipeline stages (default 2^24)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
}

/// --plugin, repeatable.
void add_plugin_option(CLI::App* command, std::vector<std::string>& plugins) {
  command
      ->add_option("--plugin", plugins,
                   "Load a policy plugin (a shared library built against the installed zettasim package; "
                   "repeatable): its policies are named like built-in ones")
      ->allow_extra_args(false);
}

constexpr const char* kForceHelp =
    "Replace the output folder even if zettasim did not write it (a file is never replaced)";

/// --out, --quiet and --force of a command that writes a result folder (`default_folder` when no --out).
void add_folder_options(CLI::App* command, FolderOptions& folder, const std::string& default_folder) {
  command->add_option("--out", folder.out_dir, "Output folder (default: " + default_folder + ")");
  command->add_flag("--quiet", folder.quiet, "Print only where the results went");
  command->add_flag("--force", folder.force, kForceHelp);
}

/// One family's entries, one line each, each prefixed with `prefix`, with the type of its parameter
/// table (zettasim params TYPE) when it reads any.
template <class Registry>
void list_family(const Registry& registry, const std::string& prefix, std::ostream& out) {
  for (const auto& e : registry.entries()) {
    out << "  " << prefix << e.name << ": " << e.description;
    if (e.params != nullptr) out << " [parameters: " << e.params->type() << "]";
    out << "\n";
  }
}

}  // namespace

/// Every family a scenario can name, from the catalog the commands use.
int list_families(const std::vector<std::string>& plugins, std::ostream& out) {
  scenario::Catalog catalog;
  plugin::load_plugins(plugins, catalog);
  out << "policies:\n";
  list_family(catalog.policies.placement, "placement ", out);
  list_family(catalog.policies.collective, "collective ", out);
  out << "checkpoint interval rules (reliability/checkpoint/interval):\n";
  list_family(catalog.policies.checkpoint_rule, "", out);
  out << "recovery policies (reliability/recovery):\n";
  list_family(catalog.policies.recovery, "", out);
  out << "topology generators (topology files' \"generator\"):\n";
  list_family(catalog.topology_generators, "", out);
  out << "workload generators (scenarios' workload/generator):\n";
  list_family(catalog.workload_generators, "", out);
  if (!catalog.policies.plugins.empty()) out << "plugins:\n";
  for (const auto& p : catalog.policies.plugins) out << "  " << p.name << ": " << p.file << "\n";
  return 0;
}

namespace {

/// A subcommand and what it does once parsed; its options live in the action's closure.
struct Command {
  CLI::App* parsed = nullptr;
  std::function<int(std::ostream&)> action;
};

/// `options` kept alive by the action that reads them.
template <class Options>
Command command(CLI::App* sub, std::shared_ptr<Options> options, int (*run)(const Options&, std::ostream&)) {
  return {sub, [options, run](std::ostream& out) { return run(*options, out); }};
}

Command add_run(CLI::App& app) {
  auto opt = std::make_shared<RunOptions>();
  auto* run =
      app.add_subcommand("run", "Simulate one training iteration of a scenario and write its results");
  run->add_option("scenario", opt->scenario, "Scenario file (default: the embedded scenarios/default.json)");
  add_folder_options(run, opt->folder, "results/<scenario name>");
  add_plugin_option(run, opt->plugins);
  run->add_option("--fidelity", opt->fidelity,
                  "auto (default: exact within 2^24 rank-ops and about 2^31 SimGrid activity scans, "
                  "collapsed beyond; the report says why), exact or collapsed");
  add_limit_options(run, opt->limits);
  auto& t = opt->timeline;
  run->add_option("--timeline", t.file,
                  "Also write a timeline of the iteration (Trace Event Format JSON: opens in ui.perfetto.dev "
                  "and chrome://tracing)");
  run->add_option("--timeline-ranks", t.ranks,
                  "Ranks the timeline shows: \"0-7,12\" or mesh coordinates \"pp=0..3,tp=0\" (default: every "
                  "simulated rank)");
  run->add_option("--timeline-window", t.window,
                  "Simulated time the timeline shows, START..END with units (\"10ms..25ms\", \"..1s\")");
  run->add_option("--timeline-max-size", t.max_size,
                  "Size cap of the timeline file; events past it are left out and the run says from when "
                  "(default 200MB)");
  run->add_option("--timeline-links", t.busiest_links,
                  "Counter tracks for this many of the busiest link directions (default 8)")
      ->check(CLI::Range(uint32_t(0), uint32_t(100000)));
  run->add_option(
      "--timeseries", t.timeseries,
      "Also write utilization over time (HDF5): per link direction, memory pool, optical switch, and "
      "per rank its states, on a fixed grid");
  run->add_option("--timeseries-step", t.timeseries_step,
                  "The grid's step in simulated time (default: 1, 2 or 5 x 10^k s, for about 1,000 samples)");
  return command(run, opt, &run_scenario);
}

Command add_goodput(CLI::App& app) {
  auto opt = std::make_shared<GoodputOptions>();
  auto* goodput = app.add_subcommand(
      "goodput",
      "Simulate days of training under failures (the scenario's reliability section): ETTR, goodput");
  goodput->add_option("scenario", opt->scenario, "Scenario file with a reliability section")->required();
  add_folder_options(goodput, opt->folder, "results/<scenario name>-goodput");
  add_plugin_option(goodput, opt->plugins);
  goodput->add_option("--seeds", opt->study.seeds, "Monte Carlo seeds (default: the scenario's)")
      ->check(CLI::Range(uint32_t(1), uint32_t(100000)));
  goodput
      ->add_option("--max-events", opt->study.max_events,
                   "Refuse a run whose one seed expects more events (failures, stragglers, peer checkpoints)")
      ->check(CLI::Range(1.0, 1e12));
  add_limit_options(goodput, opt->limits);
  goodput->add_option(
      "--timeline", opt->timeline,
      "Also write the first seed's failures and what each did to the job as a timeline (Trace "
      "Event Format JSON, for ui.perfetto.dev)");
  return command(goodput, opt, &run_goodput);
}

Command add_topo(CLI::App& app) {
  auto opt = std::make_shared<TopoOptions>();
  auto* topo = app.add_subcommand("topo", "Summarize a machine: part counts, injection, diameter, bisection");
  topo->add_option("file", opt->file, "Machine or scenario file")->required();
  topo->add_option("--graph", opt->graph, "Also write the graph (.dot or .graphml)");
  topo->add_flag("--force", opt->force,
                 "Replace a file zettasim did not write at the output path (a folder, a link or an input of "
                 "the command is never replaced)");
  topo->add_option("--diameter-sources", opt->diameter_sources,
                   "Breadth-first searches for the diameter (more units: a sampled lower bound)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  add_limit_options(topo, opt->limits);
  return command(topo, opt, &summarize_topology);
}

Command add_sweep(CLI::App& app) {
  auto opt = std::make_shared<SweepOptions>();
  auto* sweep = app.add_subcommand(
      "sweep", "Run every point of a sweep file as its own process; all results in one HDF5 file");
  sweep->add_option("spec", opt->spec, "Sweep file ({\"kind\": \"sweep\"})")->required();
  sweep->add_option("--out", opt->out, "The HDF5 file (default: results/<sweep name>.h5)");
  sweep->add_option("--csv", opt->csv, "Also write the points' table as CSV");
  sweep->add_option("--jobs", opt->jobs, "Points at once (default: one per core)")
      ->check(CLI::Range(1u, 4096u));
  sweep->add_option(
      "--backend", opt->backend,
      "Where points run: local (default: this machine) or slurm (a job array; sbatch and the nodes "
      "must see the working folder at the same path)");
  sweep->add_option("--partition", opt->partition,
                    "Slurm: the partition (default: the sweep file's, or Slurm's)");
  sweep->add_option("--time-limit", opt->time_limit, "Slurm: each array task's time limit, e.g. 2:00:00");
  sweep->add_option("--account", opt->account, "Slurm: the account charged");
  sweep
      ->add_option("--sbatch-option", opt->sbatch_options,
                   "Slurm: a further sbatch option (repeatable), e.g. --sbatch-option=--mem=8G")
      ->allow_extra_args(false);
  sweep
      ->add_option("--tasks", opt->tasks,
                   "Slurm: array tasks the points are shared among (default: one per point, at most 1000)")
      ->check(CLI::Range(uint64_t(1), uint64_t(100000)));
  sweep->add_flag(
      "--resume", opt->resume,
      "Continue an interrupted sweep, refusing if its journal holds another sweep (running the same "
      "command again resumes too, but starts afresh when the sweep changed)");
  sweep->add_flag("--quiet", opt->quiet, "No progress line");
  sweep->add_flag(
      "--force", opt->force,
      "Replace an --out or --csv file that a sweep did not write (a folder or link is never replaced)");
  add_plugin_option(sweep, opt->plugins);
  add_limit_options(sweep, opt->limits);
  sweep
      ->add_option("--max-sweep-points", opt->limits.max_sweep_points,
                   "Refuse a sweep of more points (default 10^6)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  return command(sweep, opt, &run_sweep);
}

Command add_search(CLI::App& app) {
  auto opt = std::make_shared<SearchOptions>();
  auto* search = app.add_subcommand("search",
                                    "Search the parallel plans of a scenario's job: every candidate checked "
                                    "and estimated (tier 1), the best "
                                    "run through the engine (tier 2); the best plan as a scenario file");
  search->add_option("scenario", opt->scenario, "Scenario file (a megatron workload; its \"search\" section)")
      ->required();
  search->add_option("--out", opt->out, "Results folder (default: results/<scenario name>-search)");
  search->add_option("--objective", opt->objective,
                     "time (default), energy (per token), cost (per token: the scenario's cost section) or "
                     "pareto (time against cost, or energy without costs)");
  search->add_option("--top", opt->top, "Finalists run through the engine (default 16; 0: tier 1 only)")
      ->check(CLI::Range(size_t(0), size_t(4096)));
  search->add_option("--budget", opt->budget,
                     "Tier 1's wall-time budget, e.g. 10min (default: none; a budget makes the result depend "
                     "on the machine's speed)");
  search->add_option("--jobs", opt->jobs, "Finalists at once (default: one per core)")
      ->check(CLI::Range(1u, 4096u));
  search->add_option("--backend", opt->backend,
                     "Where finalists run: local (default) or slurm (a job array through the sweep runner)");
  search->add_option("--partition", opt->partition, "Slurm: the partition");
  search->add_option("--time-limit", opt->time_limit, "Slurm: each array task's time limit, e.g. 2:00:00");
  search->add_option("--account", opt->account, "Slurm: the account charged");
  search
      ->add_option("--sbatch-option", opt->sbatch_options,
                   "Slurm: a further sbatch option (repeatable), e.g. --sbatch-option=--mem=8G")
      ->allow_extra_args(false);
  search->add_flag("--quiet", opt->quiet, "No progress lines");
  search->add_flag("--force", opt->force,
                   "Replace a results folder zettasim did not write (a file or link is never replaced)");
  add_plugin_option(search, opt->plugins);
  add_limit_options(search, opt->limits);
  return command(search, opt, &run_search);
}

Command add_regress(CLI::App& app) {
  auto opt = std::make_shared<RegressOptions>();
  auto* regress = app.add_subcommand(
      "regress",
      "Run a regression suite's cases and compare their metrics with the committed baselines (exit 1 on a "
      "regression)");
  regress->add_option("suite", opt->suite, "Suite file ({\"kind\": \"regression-suite\"})")->required();
  regress->add_flag("--update-baselines", opt->update_baselines,
                    "Rewrite the baselines with this run's values (atomically) and print what changed");
  regress->add_option("--junit", opt->junit, "Also write the checks as JUnit XML");
  regress->add_flag("--force", opt->force,
                    "Replace a file zettasim did not write at the output path (a folder, a link or an input "
                    "of the command is never replaced)");
  regress->add_option("--jobs", opt->jobs, "Cases at once (default: one per core)")
      ->check(CLI::Range(1u, 4096u));
  add_plugin_option(regress, opt->plugins);
  return command(regress, opt, &run_regress);
}

Command add_regress_case(CLI::App& app) {
  auto opt = std::make_shared<RegressCaseOptions>();
  auto* c = app.add_subcommand("regress-case", "Run one case of a regression suite (started by regress)");
  c->group("");  // internal: not listed in --help
  c->add_option("suite", opt->suite, "The suite file")->required();
  c->add_option("index", opt->index, "The case's index")->required();
  c->add_option("record", opt->record, "Where to write the case's record")->required();
  add_plugin_option(c, opt->plugins);
  return command(c, opt, &run_regress_case);
}

Command add_sweep_point(CLI::App& app) {
  auto opt = std::make_shared<SweepPointOptions>();
  auto* point = app.add_subcommand("sweep-point", "Run one point of a journalled sweep (started by sweep)");
  point->group("");  // internal: not listed in --help
  point->add_option("journal", opt->journal, "The sweep's journal folder")->required();
  point->add_option("index", opt->index, "The point's index")->required();
  return command(point, opt, &run_sweep_point);
}

Command add_sweep_chunk(CLI::App& app) {
  auto opt = std::make_shared<SweepChunkOptions>();
  auto* chunk =
      app.add_subcommand("sweep-chunk", "Run one Slurm array task of a journalled sweep (started by Slurm)");
  chunk->group("");  // internal: not listed in --help
  chunk->add_option("journal", opt->journal, "The sweep's journal folder")->required();
  chunk->add_option("task", opt->task, "This array task's index")->required();
  chunk->add_option("tasks", opt->tasks, "How many array tasks")
      ->required()
      ->check(CLI::Range(uint64_t(1), uint64_t(100000)));
  return command(chunk, opt, &run_sweep_chunk);
}

Command add_list(CLI::App& app) {
  auto plugins = std::make_shared<std::vector<std::string>>();
  auto* list = app.add_subcommand(
      "list", "List every built-in family: policies, checkpoint rules, topology and workload generators");
  add_plugin_option(list, *plugins);
  return {list, [plugins](std::ostream& out) { return list_families(*plugins, out); }};
}

/// `zettasim params`: the parameter types, one type's table, or the whole reference in Markdown.
int print_parameters(const std::string& type, bool markdown, std::ostream& out) {
  const scenario::Catalog catalog;
  auto tables = scenario::parameter_tables(catalog);
  if (!type.empty()) {  // one type: known, or refused whichever form was asked for
    const auto it =
        std::find_if(tables.begin(), tables.end(), [&](const auto* t) { return t->type() == type; });
    if (it == tables.end()) {
      std::string known;
      for (const auto* t : tables) known += (known.empty() ? "" : ", ") + t->type();
      throw core::InputError("zettasim params", "", "unknown type \"" + type + "\" (known: " + known + ")");
    }
    tables = {*it};
  }
  if (markdown)
    out << output::parameter_reference_markdown(tables);
  else if (type.empty())
    out << "parameter types (zettasim params TYPE prints one):\n" << output::parameter_type_list(tables);
  else
    out << output::parameter_table_text(*tables.front());
  return 0;
}

Command add_params(CLI::App& app) {
  auto type = std::make_shared<std::string>();
  auto markdown = std::make_shared<bool>(false);
  auto* params = app.add_subcommand(
      "params", "List every parameter of model, topology and workload files: unit, default, range, meaning");
  params->add_option("type", *type, "Print this type's parameters (default: list the types)");
  params->add_flag("--markdown", *markdown,
                   "Print every type as the Markdown reference (docs/parameters.md)");
  return {params, [type, markdown](std::ostream& out) { return print_parameters(*type, *markdown, out); }};
}

Command add_plan(CLI::App& app) {
  auto opt = std::make_shared<PlanOptions>();
  auto* plan = app.add_subcommand(
      "plan",
      "Lay out a Megatron-LM job on a cluster inventory: hostfile, ranks.json, launch.sbatch, plan.json");
  plan->add_option("scenario", opt->scenario, "Scenario file (its machine: a cluster-inventory file)")
      ->required();
  add_folder_options(plan, opt->folder, "results/<scenario name>-plan");
  plan->add_flag(
      "--predict", opt->predict,
      "Also simulate the plan: iteration time, MFU, memory, exposed communication, ETTR, --save-interval");
  plan->add_flag("--search", opt->search,
                 "First search the job's plans (zettasim search with its defaults, into "
                 "results/<scenario name>-search) and plan the best one");
  plan->add_option("--search-top", opt->search_top,
                   "With --search: finalists run through the engine (default 16)")
      ->check(CLI::Range(size_t(1), size_t(4096)));
  plan->add_option("--partition", opt->plan.partition, "Slurm partition (default: the cluster's default)");
  plan->add_option("--time", opt->plan.time_limit, "Slurm time limit, as sbatch --time takes it");
  plan->add_option("--job-name", opt->plan.job_name, "Slurm job name")->capture_default_str();
  plan->add_option("--script", opt->plan.script, "The training script torchrun runs")->capture_default_str();
  plan->add_flag_callback(
      "--no-torchrun", [opt] { opt->plan.torchrun = false; },
      "Start one task per rank with srun instead of torchrun");
  plan->add_option(
          "--spare-nodes", opt->plan.spare_nodes,
          "Idle usable nodes held in the allocation for restarts (default: the reliability section's "
          "spare units, in whole nodes)")
      ->check(CLI::Range(0u, 1u << 20));
  add_plugin_option(plan, opt->plugins);
  add_limit_options(plan, opt->limits);
  return command(plan, opt, &run_plan);
}

Command add_place(CLI::App& app) {
  auto opt = std::make_shared<PlaceOptions>();
  auto* place = app.add_subcommand(
      "place", "Place a scenario's job and print hop-bytes per communicator, without simulating");
  place->add_option("scenario", opt->scenario, "Scenario file")->required();
  place->add_option("--policy", opt->policies,
                    "Placement policy to evaluate (repeatable; default: the scenario's)");
  add_plugin_option(place, opt->plugins);
  place->add_option("--sample", opt->sample, "Evaluate at most this many ranks (every k-th), scaled up")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  add_limit_options(place, opt->limits);
  return command(place, opt, &print_placement_cost);
}

Command add_validate(CLI::App& app) {
  auto opt = std::make_shared<ValidateOptions>();
  auto* validate =
      app.add_subcommand("validate",
                         "Predict published throughput (Megatron-LM SC'21 Tables 1 and 2, published "
                         "runs at scale, or Megatron-LM's 2022 recomputation study) through the "
                         "scenario path");
  validate->add_option("file", opt->file,
                       "Validation file, or the name of a shipped one (megatron-sc21, at-scale, "
                       "megatron-2022); default: megatron-sc21");
  add_folder_options(validate, opt->folder, "results/validate-<name>");
  validate->add_option("--rows", opt->rows, "Run only the rows (runs) whose name contains this text");
  validate->add_option("--set", opt->set,
                       "POINTER=VALUE: set a parameter in every run's scenario before it runs (repeatable), "
                       "the pointer as the run's config.json shows it, the value JSON (a string if it is not "
                       "JSON), e.g. /workload/overlap_tensor_communication=false; a what-if the report "
                       "states");
  return command(validate, opt, &run_validate);
}

/// --comm-groups: the communicator-group file of a Chakra trace's process groups.
void add_comm_groups_option(CLI::App* command, std::string& file) {
  command->add_option("--comm-groups", file,
                      "A Chakra trace's communicator-group file, as ASTRA-sim's --comm-group-configuration "
                      "takes it: {\"pg_name\": [member ranks], ...}");
}

Command add_trace_gen(CLI::App& trace) {
  auto opt = std::make_shared<TraceGenOptions>();
  auto* gen =
      trace.add_subcommand("gen", "Write the trace of a model under a parallel plan, or of a scenario");
  gen->add_option("input", opt->input,
                  "Model file (kind transformer), scenario file, or Chakra trace prefix (imports it)")
      ->required();
  gen->add_option("--generator", opt->generator,
                  "Workload generator for a model file: megatron, ideal-data-parallel");
  gen->add_option("--parallel", opt->parallel,
                  "Plan keys for a model file, e.g. data_parallel=8,tensor_parallel=4,pipeline_parallel=2,"
                  "micro_batch=1,global_batch=64");
  gen->add_option("--megatron-args", opt->megatron_args,
                  "File of Megatron-LM arguments for a model file's plan (as a launch script holds them); "
                  "--parallel's keys are laid over them (data_parallel, which Megatron-LM takes from the "
                  "world size, among them)");
  add_comm_groups_option(gen, opt->comm_groups);
  gen->add_option(
      "--out", opt->out,
      "Trace file to write: .json, or .cbor for the compact binary form (default: <trace name>.trace.json)");
  gen->add_flag("--force", opt->force,
                "Replace a file zettasim did not write at the output path (a folder, a link or an input of "
                "the command is never replaced)");
  return command(gen, opt, &generate_trace_file);
}

Command add_trace_inspect(CLI::App& trace) {
  auto input = std::make_shared<std::pair<std::string, std::string>>();  // the file, its group file
  auto* inspect =
      trace.add_subcommand("inspect", "Print a trace's totals: FLOPs, bytes per communicator, ops, memory");
  inspect->add_option("file", input->first, "Trace file, scenario file or Chakra trace prefix")->required();
  add_comm_groups_option(inspect, input->second);
  return {inspect, [input](std::ostream& out) { return inspect_trace(input->first, input->second, out); }};
}

Command add_trace_export(CLI::App& trace) {
  struct ExportOptions {
    std::string input, comm_groups, dir;
    bool force = false;
  };
  auto opt = std::make_shared<ExportOptions>();
  auto* export_chakra = trace.add_subcommand(
      "export-chakra", "Write a trace as MLCommons Chakra execution traces, one <name>.<rank>.et per rank");
  export_chakra->add_option("input", opt->input, "Trace file, scenario file or Chakra trace prefix")
      ->required();
  export_chakra->add_option("--out", opt->dir, "Folder to write (an earlier export there is replaced)")
      ->required();
  add_comm_groups_option(export_chakra, opt->comm_groups);
  export_chakra->add_flag("--force", opt->force, kForceHelp);
  return {export_chakra, [opt](std::ostream& out) {
            return export_chakra_files(opt->input, opt->comm_groups, opt->dir, opt->force, out);
          }};
}

/// A parse error as one line, like every other input error; the text is CLI11's, with any user text
/// escaped.
std::string parse_error_line(const CLI::ParseError& e) {
  std::string what = e.what();
  if (const auto newline = what.find('\n'); newline != std::string::npos) what.resize(newline);
  std::string line;
  for (char c : what) line += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  return line;
}

/// "unknown command \"X\" (known: ...)" when the first word that is not an option names no command of
/// `app` (or of the command it names, for `trace X`); "" otherwise.
std::string unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* at = &app;
  std::string path;
  for (int i = 1; i < argc && at != nullptr; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return "";
    const auto commands = at->get_subcommands([](const CLI::App*) { return true; });
    if (commands.empty()) return "";
    const CLI::App* next = nullptr;
    std::string known;
    for (const CLI::App* c : commands) {
      if (c->get_name() == word) next = c;
      if (!c->get_group().empty()) known += (known.empty() ? "" : ", ") + c->get_name();
    }
    if (next == nullptr)
      return "unknown command \"" + core::one_line(path + word) + "\" (known: " + known + ")";
    path += word + " ";
    at = next;
  }
  return "";
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"zettasim: discrete-event simulator of disaggregated AI supercomputers"};
  app.set_version_flag("--version", std::string("zettasim ") + core::kVersion);
  app.require_subcommand(1);
  std::vector<Command> commands = {
      add_run(app),         add_goodput(app), add_topo(app),     add_list(app),        add_params(app),
      add_place(app),       add_plan(app),    add_validate(app), add_sweep(app),       add_sweep_point(app),
      add_sweep_chunk(app), add_search(app),  add_regress(app),  add_regress_case(app)};
  auto* trace = app.add_subcommand(
      "trace",
      "Generate, inspect or export a trace (a Chakra trace is read wherever a trace is: gen, inspect)");
  trace->require_subcommand(1);
  for (auto add : {&add_trace_gen, &add_trace_inspect, &add_trace_export}) commands.push_back(add(*trace));

  if (const std::string unknown = unknown_command(app, argc, argv); !unknown.empty()) {
    err << "zettasim: error: command line: " << unknown << " (see zettasim --help)\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    std::ostringstream text;
    int code = app.exit(e, text, text);
    out << text.str();
    return code;
  } catch (const CLI::ParseError& e) {
    err << "zettasim: error: command line: " << parse_error_line(e) << " (see zettasim --help)\n";
    return 2;
  }

  try {
    for (const auto& c : commands)
      if (*c.parsed) return c.action(out);
  } catch (const core::InputError& e) {
    err << "zettasim: error: " << e.what() << "\n";
    return 2;
  } catch (const engine::EngineValueError& e) {
    err << "zettasim: error: " << core::bounded_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "zettasim: internal error: " << core::one_line(e.what()) << "\n";
    return 1;
  }
  return 1;
}

}  // namespace zs::cli
