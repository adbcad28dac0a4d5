// The subcommands of `zettasim`: each reads its input, calls one library function and prints or writes
// what the output layer formats. Input errors throw core::InputError.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "planner/job_plan.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/goodput_study.hpp"

namespace zs::cli {

/// What every command that writes a result folder takes.
struct FolderOptions {
  std::string out_dir;  ///< empty: results/<default name>
  bool quiet = false;   ///< print only where the results went
  bool force = false;   ///< replace an existing folder that zettasim did not write
};

/// What `run` writes besides its results folder: a timeline (`--timeline FILE` and the options that choose
/// what it shows) and a time series (`--timeseries FILE`, its step).
struct TimelineRequest {
  std::string file;                ///< empty: no timeline
  std::string ranks;               ///< --timeline-ranks: "0-7,12" or "pp=0..3,tp=0"; empty: every rank
  std::string window;              ///< --timeline-window: "START..END" in time units, either side optional
  std::string max_size = "200MB";  ///< --timeline-max-size
  uint32_t busiest_links = 8;      ///< --timeline-links
  std::string timeseries;          ///< --timeseries FILE.h5; empty: none
  std::string timeseries_step;     ///< --timeseries-step; empty: about 1,000 samples (1, 2 or 5 x 10^k s)
};

struct RunOptions {
  std::vector<std::string> plugins;  ///< --plugin: policy plugins loaded before the scenario
  std::string scenario;              ///< empty: the embedded scenarios/default.json
  FolderOptions folder;
  std::string fidelity;  ///< overrides the scenario's when set
  TimelineRequest timeline;
  scenario::LoadLimits limits;
};
/// `zettasim list`: every family, with the policies of `plugins`.
int list_families(const std::vector<std::string>& plugins, std::ostream& out);

/// One iteration: summary.json, config.json and report.txt in results/<scenario name>.
int run_scenario(const RunOptions& opt, std::ostream& out);

struct GoodputOptions {
  std::vector<std::string> plugins;  ///< --plugin: policy plugins loaded before the scenario
  std::string scenario;
  FolderOptions folder;  ///< default results/<scenario name>-goodput
  study::GoodputStudyOptions study;
  scenario::LoadLimits limits;
  std::string timeline;  ///< --timeline FILE.json: the first seed's interruptions; empty: none
};
/// Days of training under failures: goodput.json, config.json and report.txt.
int run_goodput(const GoodputOptions& opt, std::ostream& out);

struct TopoOptions {
  std::string file;    ///< machine or scenario file
  std::string graph;   ///< also write the graph here (.dot or .graphml)
  bool force = false;  ///< replace a file at --graph that zettasim did not write
  uint64_t diameter_sources = 4096;
  scenario::LoadLimits limits;
};
int summarize_topology(const TopoOptions& opt, std::ostream& out);

struct PlaceOptions {
  std::vector<std::string> plugins;  ///< --plugin: policy plugins loaded before the scenario
  std::string scenario;
  std::vector<std::string> policies;  ///< empty: the scenario's own
  uint64_t sample = 1024;             ///< ranks evaluated at most
  scenario::LoadLimits limits;
};
int print_placement_cost(const PlaceOptions& opt, std::ostream& out);

struct PlanOptions {
  std::vector<std::string> plugins;  ///< --plugin: policy plugins loaded before the scenario
  std::string scenario;
  FolderOptions folder;  ///< default results/<scenario name>-plan
  planner::PlanOptions plan;
  bool predict = false;  ///< also simulate the plan (the engine)
  /// First search the job's plans (`zettasim search` with its defaults, into results/<name>-search) and
  /// plan the best one.
  bool search = false;
  size_t search_top = 16;  ///< the search's finalists
  scenario::LoadLimits limits;
};
/// A real job's folder: hostfile, ranks.json, launch.sbatch and plan.json.
int run_plan(const PlanOptions& opt, std::ostream& out);

struct ValidateOptions {
  std::string file;      ///< empty: the embedded scenarios/validation/megatron-sc21.json
  FolderOptions folder;  ///< default results/validate-<name>
  std::string rows;      ///< run only rows whose name contains this
  /// "POINTER=VALUE" each: set in every run's scenario (published-runs validations); VALUE is JSON, or a
  /// string when it does not parse as JSON.
  std::vector<std::string> set;
};
/// Returns 0 when the file's acceptance holds, 1 when it does not.
int run_validate(const ValidateOptions& opt, std::ostream& out);

struct TraceGenOptions {
  std::string input;  ///< a model file (kind "transformer"), a scenario, a trace or a Chakra prefix
  std::string generator = "megatron";
  std::string parallel;       ///< "key=value,..." plan keys, with a model file
  std::string megatron_args;  ///< a file of Megatron-LM arguments for the model file's plan, if any
  std::string out;            ///< the trace file to write; default <trace name>.trace.json
  std::string comm_groups;    ///< a Chakra trace's communicator-group file, if any
  bool force = false;         ///< replace a file at --out that zettasim did not write
};
int generate_trace_file(const TraceGenOptions& opt, std::ostream& out);

/// Prints a trace's totals; `input` is a trace file, a scenario or a Chakra prefix.
/// `comm_groups`: a Chakra trace's communicator-group file, or empty.
int inspect_trace(const std::string& input, const std::string& comm_groups, std::ostream& out);

/// Writes a trace as Chakra files "<out_dir>/<trace name>.<rank>.et", atomically.
int export_chakra_files(const std::string& input, const std::string& comm_groups, const std::string& out_dir,
                        bool force, std::ostream& out);

struct SweepOptions {
  std::vector<std::string> plugins;  ///< --plugin: policy plugins loaded before the scenario
  std::string spec;
  std::string out;  ///< empty: results/<sweep name>.h5
  std::string csv;
  unsigned jobs = 0;  ///< 0: one per core
  std::string backend = "local";
  std::string partition, time_limit, account;  ///< Slurm: override the sweep file's
  std::vector<std::string> sbatch_options;
  uint64_t tasks = 0;
  bool resume = false;
  bool quiet = false;
  bool force = false;
  scenario::LoadLimits limits;
};
/// Every point of a sweep file, as processes, into one HDF5 file.
int run_sweep(const SweepOptions& opt, std::ostream& out);

struct SearchOptions {
  std::vector<std::string> plugins;
  std::string scenario;
  std::string out;  ///< empty: results/<scenario name>-search
  std::string objective = "time";
  size_t top = 16;
  std::string budget;  ///< tier 1's wall-time budget ("10min"); empty: none
  unsigned jobs = 0;   ///< 0: one per core
  std::string backend = "local";
  std::string partition, time_limit, account;
  std::vector<std::string> sbatch_options;
  bool quiet = false;
  bool force = false;
  scenario::LoadLimits limits;
};
/// Searches the plans of a scenario's job (tier 1 estimates, tier 2 through the engine).
int run_search(const SearchOptions& opt, std::ostream& out);

struct RegressOptions {
  std::string suite;
  bool update_baselines = false;
  std::string junit;   ///< also write JUnit XML here
  bool force = false;  ///< replace a file at --junit that zettasim did not write
  unsigned jobs = 0;   ///< 0: one per core
  std::vector<std::string> plugins;
};
/// Runs a regression suite: 0 when every metric held, 1 when one regressed, lacks a baseline or its case
/// failed; with update_baselines, 0 unless a case failed.
int run_regress(const RegressOptions& opt, std::ostream& out);

struct RegressCaseOptions {
  std::string suite, record;
  uint64_t index = 0;
  std::vector<std::string> plugins;
};
/// One case of a regression suite (started by regress, not by users).
int run_regress_case(const RegressCaseOptions& opt, std::ostream& out);

struct SweepPointOptions {
  std::string journal;
  uint64_t index = 0;
};
/// One point of a journalled sweep (started by `zettasim sweep`, not by users).
int run_sweep_point(const SweepPointOptions& opt, std::ostream& out);

struct SweepChunkOptions {
  std::string journal;
  uint64_t task = 0, tasks = 1;
};
/// One Slurm array task of a journalled sweep (started by Slurm, not by users).
int run_sweep_chunk(const SweepChunkOptions& opt, std::ostream& out);

}  // namespace zs::cli
