// The C++ half of `import zettasim`: scenarios, runs, placement costs and plans through the same library
// calls as the CLI. JSON crosses the boundary as text (the Python half parses it); InputError becomes
// zettasim.InputError.
#include <fcntl.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>

#include "batch/plan_search_run.hpp"
#include "batch/sweep_runner.hpp"
#include "core/fidelity.hpp"
#include "core/file_name.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/version.hpp"
#include "engine/engine_value_error.hpp"
#include "output/chakra_folder.hpp"
#include "output/goodput_report.hpp"
#include "output/output_formats.hpp"
#include "output/placement_report.hpp"
#include "output/run_record.hpp"
#include "output/search_report.hpp"
#include "output/time_series.hpp"
#include "output/timeline_json.hpp"
#include "output/trace_report.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_patch.hpp"
#include "scenario/sweep_value.hpp"
#include "study/goodput_study.hpp"
#include "study/placement_study.hpp"
#include "study/scenario_simulation.hpp"
#include "study/trace_input.hpp"
#include "workload/trace_json.hpp"
#include "workload/transformer_spec.hpp"

namespace py = pybind11;
using namespace zs;

namespace {

/// A scenario file (on disk, or held in `overlay` with the files changed by with_) and what it loads to.
struct LoadedScenario {
  std::string path;
  std::map<std::string, std::string> overlay;  ///< path → text, in front of the disk
  std::shared_ptr<const scenario::Scenario> scenario;
  std::vector<std::string> inputs;  ///< the files on disk it was read from: no output replaces them
};

LoadedScenario load(std::string path, std::map<std::string, std::string> overlay) {
  core::DiskFileSource disk;
  core::OverlayFileSource files(disk, overlay);
  scenario::Catalog catalog;
  auto s = std::make_shared<scenario::Scenario>(plugin::load_scenario(files, path, catalog, {}));
  return {std::move(path), std::move(overlay), std::move(s), files.files_read()};
}

/// A scenario given as JSON text, as if it were the file `path` (relative paths in it resolve from there).
LoadedScenario load_text(const std::string& json_text, const std::string& path) {
  return load(path, {{std::filesystem::path(path).lexically_normal().generic_string(), json_text}});
}

/// A copy with each (JSON pointer, JSON value) set where the user would edit it (scenario::ScenarioPatch,
/// as a sweep point does); file names in values resolve from the folder `relative_to`.
LoadedScenario with_values(const LoadedScenario& base, const std::map<std::string, std::string>& changes,
                           const std::string& relative_to) {
  core::DiskFileSource disk;
  core::OverlayFileSource files(disk, base.overlay);
  scenario::ScenarioPatch patch(files, base.path, base.scenario->resolved);
  const std::string referrer =
      (std::filesystem::path(relative_to) / "with_").string();  // a file in that folder
  for (const auto& [pointer, text] : changes) {
    // Every problem with a change is an InputError at "with_" and the pointer (core::one_line cuts no text).
    const std::string at_pointer = pointer;  // a lambda may not capture a structured binding (clang 14)
    const auto refuse = [&](const std::string& expected) {
      return core::InputError("with_", at_pointer, expected);
    };
    if (pointer.empty() || pointer[0] != '/')
      throw refuse("expected a JSON pointer such as /workload/data_parallel, got \"" + pointer + "\"");
    const nlohmann::json value_read = nlohmann::json::parse(text, nullptr, false);
    if (value_read.is_discarded())  // Python's NaN and infinities are no JSON
      throw refuse("expected a finite number, a string, a boolean, a list or a dict, got " + text);
    nlohmann::json value = value_read;
    nlohmann::json::json_pointer at;
    try {
      at = nlohmann::json::json_pointer(pointer);
    } catch (const nlohmann::json::exception&) {
      throw refuse("expected a JSON pointer (\"~\" written \"~0\", \"/\" in a key \"~1\")");
    }
    // A number where the configuration holds a quantity is in SI base units: written with its unit.
    if (value.is_number() && base.scenario->resolved.contains(at)) {
      const auto kind = scenario::sweep_value_kind(base.scenario->resolved.at(at));
      if (scenario::is_quantity(kind)) value = scenario::value_of(kind, value.get<double>());
    }
    try {
      patch.set(pointer, value, referrer);
    } catch (const std::invalid_argument& e) {
      throw refuse(e.what());
    }
  }
  auto overlay = base.overlay;
  for (auto& [file, text] : patch.files()) overlay[file] = std::move(text);
  return load(base.path, std::move(overlay));
}

using Files = std::map<std::string, std::string>;

/// What a child sends back: the files, or the error it raised.
std::string child_payload(const std::function<Files()>& work) {
  try {
    return nlohmann::json{{"files", work()}}.dump();
  } catch (const core::InputError& e) {
    return nlohmann::json{{"input_error", {e.what(), e.file(), e.json_path(), e.message()}}}.dump();
  } catch (const engine::EngineValueError& e) {  // in-range values that combine beyond the engine's range
    const std::string line = core::bounded_line(e.what());
    return nlohmann::json{{"input_error", {line, "", "", line}}}.dump();
  } catch (const std::exception& e) {
    return nlohmann::json{{"error", e.what()}}.dump();
  }
}

/// Runs `work` in a child process and returns its files. The interpreter waits without its lock, looking
/// for Ctrl-C every 50 ms: KeyboardInterrupt kills the child at once, and a run leaves nothing behind in the
/// interpreter (no half-made result, and no simulator state: SimGrid's is process-wide).
Files in_child(const std::function<Files()>& work) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe for the simulation process");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("cannot start the simulation process");
  if (pid == 0) {  // the child: no Python here, and _exit so that no interpreter handler runs
    close(fds[0]);
    const std::string payload = child_payload(work);
    for (size_t at = 0; at < payload.size();) {
      const ssize_t n = write(fds[1], payload.data() + at, payload.size() - at);
      if (n <= 0 && errno != EINTR) _exit(3);
      if (n > 0) at += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string data;
  char buffer[1 << 16];
  while (true) {
    ssize_t n = 0;
    {
      py::gil_scoped_release unlocked;
      pollfd p{fds[0], POLLIN, 0};
      if (poll(&p, 1, 50) > 0)
        n = read(fds[0], buffer, sizeof buffer);
      else
        n = -2;  // nothing yet
    }
    if (n > 0) data.append(buffer, static_cast<size_t>(n));
    if (n == 0 || (n == -1 && errno != EINTR)) break;
    if (PyErr_CheckSignals() != 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
      close(fds[0]);
      throw py::error_already_set();
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || data.empty())
    throw std::runtime_error(
        "the simulation process died" +
        (WIFSIGNALED(status) ? " of signal " + std::to_string(WTERMSIG(status)) : std::string()));
  const auto reply = nlohmann::json::parse(data);
  if (reply.contains("input_error")) {
    const auto& e = reply["input_error"];
    py::object error = py::module_::import("zettasim._errors").attr("InputError");
    py::object instance = error(e[0].get<std::string>(), e[1].get<std::string>(), e[2].get<std::string>(),
                                e[3].get<std::string>());
    PyErr_SetObject(error.ptr(), instance.ptr());
    throw py::error_already_set();
  }
  if (reply.contains("error")) throw std::runtime_error(reply["error"].get<std::string>());
  return reply["files"].get<Files>();
}

/// One iteration: summary.json, config.json and report.txt as `zettasim run` writes them, simulated in a
/// child process (in_child).
/// Writes what `run` was asked for besides its files: a timeline (of the ranks `ranks` selects) and a time
/// series (`step` s; 0: the default step).
void write_views(const scenario::Scenario& s, const engine::SimulationResult& result,
                 const std::optional<core::OutputFile>& timeline, const std::string& ranks,
                 const std::optional<core::OutputFile>& timeseries, double step) {
  if (timeline) {
    output::TimelineOptions options;
    if (!ranks.empty()) options.ranks = workload::RankSelection::parse(ranks, s.trace.mesh, "timeline_ranks");
    output::write_timeline_file(*timeline, s, result, options);
  }
  if (timeseries) output::write_time_series_file(*timeseries, s, result, step);
}

/// run()'s timeline and time-series files under the output-file rule, checked before the simulation: never
/// over a link, a folder, the scenario's files or a file zettasim did not write, never both on one path.
std::pair<std::optional<core::OutputFile>, std::optional<core::OutputFile>> view_files(
    const LoadedScenario& loaded, const std::string& timeline, const std::string& timeseries) {
  core::CommandOutputs outputs(loaded.inputs);
  std::optional<core::OutputFile> t, ts;
  if (!timeline.empty()) {
    t = output::output_file(output::OutputFormat::kTimeline, "timeline", timeline, false, loaded.inputs);
    outputs.add_file(*t);
  }
  if (!timeseries.empty()) {
    ts = output::output_file(output::OutputFormat::kTimeSeries, "timeseries", timeseries, false,
                             loaded.inputs);
    outputs.add_file(*ts);
  }
  return {t, ts};
}

Files run(const LoadedScenario& loaded, const std::string& fidelity, const std::string& timeline,
          const std::string& timeline_ranks, const std::string& timeseries, double timeseries_step) {
  scenario::Scenario s = *loaded.scenario;
  if (!fidelity.empty()) {
    const auto f = core::parse_fidelity(fidelity);
    if (!f)
      throw core::InputError("fidelity", "", "expected auto, exact or collapsed, got \"" + fidelity + "\"");
    s.fidelity = *f;
  }
  s.resolved["fidelity"] = core::to_string(s.fidelity);
  if (!timeline_ranks.empty()) workload::RankSelection::parse(timeline_ranks, s.trace.mesh, "timeline_ranks");
  if (!(timeseries_step >= 0.0) || !std::isfinite(timeseries_step))
    throw core::InputError(
        "timeseries_step", "",
        "expected a step in seconds >= 0 (0: the default), got " + std::to_string(timeseries_step));
  if (timeseries.empty() && timeseries_step > 0)
    throw core::InputError("timeseries_step", "",
                           "applies to a time series: expected timeseries=FILE with it");
  if (timeline.empty() && !timeline_ranks.empty())
    throw core::InputError("timeline_ranks", "", "applies to a timeline: expected timeline=FILE with it");
  const auto views = view_files(loaded, timeline, timeseries);
  const std::optional<core::OutputFile>&timeline_file = views.first, &timeseries_file = views.second;
  return in_child([&] {
    const engine::SimulationResult result =
        study::simulate_scenario(s, {}, !timeline.empty() || !timeseries.empty());
    write_views(s, result, timeline_file, timeline_ranks, timeseries_file, timeseries_step);
    return Files{{"summary.json", output::summary_json(s, result).dump(2) + "\n"},
                 {"config.json", output::config_json(s).dump(2) + "\n"},
                 {"report.txt", output::report_text(s, result)}};
  });
}

/// Days of training under failures: goodput.json, config.json and report.txt as `zettasim goodput` writes
/// them (`seeds` > 0 overrides the scenario's), in a child process.
Files goodput(const LoadedScenario& loaded, uint32_t seeds) {
  const scenario::Scenario& s = *loaded.scenario;
  return in_child([&s, &loaded, seeds] {
    study::require_reliability_section(s, loaded.path);
    study::GoodputStudyOptions options;
    options.seeds = seeds;
    const study::GoodputStudy g = study::run_goodput_study(loaded.scenario, loaded.path, options);
    return Files{{"goodput.json", output::goodput_json(s, g).dump(2) + "\n"},
                 {"config.json", output::config_json(s).dump(2) + "\n"},
                 {"report.txt", output::goodput_report(s, loaded.path, g)}};
  });
}

/// Placements by the named policies (none: the scenario's) and their costs, as `zettasim place` prints them,
/// and one JSON row per (policy, communicator): bytes and hop-bytes per iteration.
Files place(const LoadedScenario& loaded, const std::vector<std::string>& policies, uint64_t sample) {
  const scenario::Scenario& s = *loaded.scenario;
  const auto studies = study::study_placements(s, policies, sample, "policies");
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : studies)
    for (const auto& c : p.cost.communicators)
      rows.push_back({{"policy", p.policy},
                      {"communicator", c.name},
                      {"bytes", c.bytes},
                      {"hop_bytes", c.hop_bytes},
                      {"mean_hops", c.mean_hops()}});
  return {{"report.txt", output::placement_report(s, studies)}, {"rows.json", rows.dump()}};
}

/// A sweep file run as `zettasim sweep` runs it, each point a process of `executable` (zettasim, whose
/// sweep-point runs one), coordinated from a child process (Ctrl-C kills it and its points; the journal
/// keeps what finished, for resume). Returns the HDF5 file's path and the table as CSV text.
Files sweep(const std::string& spec, const std::string& out, unsigned jobs, const std::string& executable,
            bool resume, bool force) {
  return in_child([&] {
    char dir[] = "/tmp/zettasim-sweep-XXXXXX";
    if (mkdtemp(dir) == nullptr) throw std::runtime_error("cannot create a temporary folder");
    batch::SweepOptions o;
    o.spec = spec;
    o.out = out;
    o.csv = std::string(dir) + "/points.csv";
    o.jobs = jobs;
    o.resume = resume;
    o.force = force;
    o.quiet = true;
    o.command = {executable, {"sweep-point"}};
    core::DiskFileSource files;
    std::ostringstream progress;
    const batch::SweepOutcome r = batch::run_sweep(files, o, progress);
    const auto csv = files.read(o.csv);
    std::filesystem::remove_all(dir);
    return Files{{"out", r.out}, {"csv", csv.value_or("")}};
  });
}

/// A plan search as `zettasim search` runs it (its finalists processes of `executable`), coordinated from a
/// child process. Returns the results folder's path, search.json and report.txt.
Files search_plans(const std::string& scenario_path, const std::string& out, const std::string& objective,
                   size_t top, unsigned jobs, const std::string& executable, bool force) {
  const auto parsed = search::objectives().find(objective);
  if (!parsed)
    throw core::InputError("objective", "",
                           "unknown objective \"" + objective + "\" (known: time, energy, cost, pareto)");
  return in_child([&] {
    batch::SearchOptions o;
    o.scenario = scenario_path;
    o.out = out;
    o.objective = *parsed;
    o.top = top;
    o.jobs = jobs;
    o.force = force;
    o.quiet = true;
    o.command = {executable, {"sweep-point"}};
    core::DiskFileSource files;
    std::ostringstream progress;
    const batch::SearchOutcome r = batch::run_search(files, o, progress);
    return Files{{"out", r.out},
                 {"search.json", output::search_json(r.result).dump()},
                 {"report.txt", output::search_report_text(r.result)}};
  });
}

/// The trace an input stands for (a trace file, a scenario, a Chakra prefix, or a model file with
/// `plan_json` a plan as a scenario's workload gives it): "trace.json" (zettasim's trace format),
/// "report.txt" (what `zettasim trace inspect` prints) and "imported" (what a Chakra import assumed, or
/// empty).
Files trace(const std::string& input, const std::string& generator, const std::string& plan_json,
            const std::string& comm_groups) {
  core::DiskFileSource files;
  std::optional<study::TraceGeneration> generation;
  if (!plan_json.empty())
    generation = study::TraceGeneration{generator, nlohmann::json::parse(plan_json), "parallel"};
  const study::TraceInput read =
      study::read_trace_input(files, input, generation ? &*generation : nullptr, comm_groups);
  const auto* imported = read.imported ? &*read.imported : nullptr;
  return {{"trace.json", workload::trace_to_json(read.trace).dump(1) + "\n"},
          {"report.txt", output::trace_inspection(read.trace, imported)},
          {"imported", imported ? output::import_summary(*imported) : ""}};
}

/// Chakra execution traces of an input (one .et file per rank) in `out_dir`, as `zettasim trace
/// export-chakra` writes them; returns how many files.
uint64_t export_chakra(const std::string& input, const std::string& out_dir, const std::string& comm_groups,
                       bool force) {
  core::DiskFileSource files;
  const study::TraceInput read = study::read_trace_input(files, input, nullptr, comm_groups);
  if (auto problem = core::file_name_problem(read.trace.name))  // it names the files, as in the command
    throw core::InputError(input, "",
                           "the trace name " + core::quoted_for_message(read.trace.name) +
                               " is used for the Chakra file names and must be " + core::kFileNameRule +
                               ", got " + *problem);
  return output::write_chakra_folder(
      read.trace, out_dir, force ? core::Replace::kForce : core::Replace::kOwnOutput, read.compute_time);
}

/// A machine file (kind "machine", or a scenario's machine) as its resolved configuration: models inlined,
/// units canonical, the topology as read, counts of units, switches and links.
std::string machine_json(const std::string& path) {
  core::DiskFileSource files;
  nlohmann::json resolved;
  scenario::ScenarioLoader(files).load_machine(path, &resolved);
  return resolved.dump();
}

/// A transformer model file (kind "transformer") as read: every key, defaults filled in, with its derived
/// sizes under "derived" (parameters in all, and those one token passes through: the weight matrices of each
/// layer's attention and its dense FFN or top-k routed and shared experts, and the output layer).
std::string model_json(const std::string& path) {
  core::DiskFileSource files;
  nlohmann::json doc = files.read_json(path);
  core::JsonObject json(doc, path, "");
  const auto model = workload::TransformerSpec::from_json(json);
  nlohmann::json resolved = model.to_json();
  resolved["derived"] = {{"parameters", model.total_params()}, {"active_parameters", model.active_params()}};
  return resolved.dump();
}

/// The planner's four files, without prediction.
std::map<std::string, std::string> plan(const LoadedScenario& loaded) {
  scenario::Scenario job = *loaded.scenario;
  planner::make_nccl_job(job);
  const auto p = planner::make_job_plan(job, {});
  std::map<std::string, std::string> out;
  for (auto& [name, text] : planner::plan_files(p, planner::plan_json(p))) out[name] = std::move(text);
  return out;
}

}  // namespace

PYBIND11_MODULE(_zettasim, m) {
  m.doc() = "zettasim's C++ libraries; use the zettasim package, which wraps them";
  m.attr("__version__") = core::kVersion;
  m.attr("source_dir") = ZS_SOURCE_DIR;  // the shipped models, topologies and workloads of a build tree
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const core::InputError& e) {
      py::object error = py::module_::import("zettasim._errors").attr("InputError");
      py::object instance = error(e.what(), e.file(), e.json_path(), e.message());
      PyErr_SetObject(error.ptr(), instance.ptr());
    }
  });
  py::class_<LoadedScenario>(m, "LoadedScenario")
      .def_property_readonly("path", [](const LoadedScenario& s) { return s.path; })
      .def_property_readonly("name", [](const LoadedScenario& s) { return s.scenario->name; })
      .def_property_readonly("overlay", [](const LoadedScenario& s) { return s.overlay; })
      .def("config_json", [](const LoadedScenario& s) { return output::config_json(*s.scenario).dump(); });
  m.def(
      "load", [](const std::string& path) { return load(path, {}); }, py::arg("path"));
  m.def("load_text", &load_text, py::arg("json_text"), py::arg("path"));
  m.def("with_values", &with_values, py::arg("base"), py::arg("changes"), py::arg("relative_to"));
  m.def("run", &run, py::arg("scenario"), py::arg("fidelity") = "", py::arg("timeline") = "",
        py::arg("timeline_ranks") = "", py::arg("timeseries") = "", py::arg("timeseries_step") = 0.0);
  m.def("plan", &plan, py::arg("scenario"));
  m.def("machine_json", &machine_json, py::arg("path"));
  m.def("model_json", &model_json, py::arg("path"));
  m.def("trace", &trace, py::arg("input"), py::arg("generator"), py::arg("plan_json"),
        py::arg("comm_groups"));
  m.def("export_chakra", &export_chakra, py::arg("input"), py::arg("out_dir"), py::arg("comm_groups"),
        py::arg("force"));
  m.def("goodput", &goodput, py::arg("scenario"), py::arg("seeds") = 0);
  m.def("place", &place, py::arg("scenario"), py::arg("policies"), py::arg("sample") = 1024);
  m.def("sweep", &sweep, py::arg("spec"), py::arg("out"), py::arg("jobs"), py::arg("executable"),
        py::arg("resume"), py::arg("force"));
  m.def("search", &search_plans, py::arg("scenario"), py::arg("out"), py::arg("objective"), py::arg("top"),
        py::arg("jobs"), py::arg("executable"), py::arg("force"));
}
