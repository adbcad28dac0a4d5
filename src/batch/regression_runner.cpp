// `zettasim regress`: runs a suite's cases as processes, compares their metrics with the baselines and,
// when asked, rewrites the baselines.
#include "batch/regression_runner.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "batch/local_backend.hpp"
#include "batch/regression_case_run.hpp"
#include "core/atomic_file.hpp"
#include "core/file_source.hpp"
#include "output/output_formats.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/regression_check.hpp"

namespace zs::batch {
namespace fs = std::filesystem;
namespace {

/// A private temporary folder, removed with everything in it when this goes.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string name = (fs::temp_directory_path() / "zettasim-regress-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr)
      throw std::runtime_error(std::string("cannot make a temporary folder: ") + std::strerror(errno));
    path_ = name;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

nlohmann::json read_record(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

/// Every case's record, each from its own process, at most `jobs` at once.
std::vector<nlohmann::json> run_cases(const RegressionOptions& options, size_t cases) {
  ScratchFolder scratch;
  auto record_file = [&](size_t i) { return scratch.path() / (std::to_string(i) + ".json"); };
  auto log_file = [&](size_t i) { return scratch.path() / (std::to_string(i) + ".log"); };
  const unsigned jobs = options.jobs > 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<nlohmann::json> records(cases);
  std::map<pid_t, size_t> running;
  size_t next = 0;
  while (next < cases || !running.empty()) {
    while (next < cases && running.size() < jobs) {
      std::vector<std::string> words{options.executable, "regress-case", options.suite, std::to_string(next),
                                     record_file(next).string()};
      for (const auto& p : options.plugins) words.insert(words.end(), {"--plugin", p});
      running[start_process(words, log_file(next).string())] = next;
      ++next;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for the cases' processes: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const size_t index = it->second;
    running.erase(it);
    records[index] = read_record(record_file(index));
    if (records[index].is_null())
      records[index] = {
          {"status", scenario::case_statuses().name(scenario::CaseStatus::kError)},
          {"error", failed_record(index, status, last_line_of(log_file(index).string()))["error"]}};
  }
  return records;
}

std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

/// The baselines after this run: each case that ran gets its metrics' values; a case that failed keeps
/// its old ones; baselines of cases or metrics the suite no longer has are dropped. `changes` receives one
/// line per difference.
scenario::RegressionBaselines updated_baselines(const scenario::RegressionBaselines& old,
                                                const std::vector<scenario::MetricCheck>& checks,
                                                std::vector<std::string>& changes) {
  scenario::RegressionBaselines updated;
  for (const auto& check : checks) {
    const std::string at = check.case_name + ": " + check.metric.name;
    const std::string was = check.baseline ? short_number(*check.baseline) : "none";
    if (check.now) {
      updated[check.case_name][check.metric.name] = *check.now;
      if (!check.baseline || *check.baseline != *check.now)
        changes.push_back(at + ": " + was + " -> " + short_number(*check.now));
    } else if (check.baseline) {
      updated[check.case_name][check.metric.name] = *check.baseline;  // the case failed: kept
    }
  }
  for (const auto& [name, metrics] : old)
    for (const auto& [metric, value] : metrics)
      if (!updated.count(name) || !updated.at(name).count(metric))
        changes.push_back(name + ": " + metric + ": " + short_number(value) + " -> removed");
  return updated;
}

/// Baselines no case compares any more.
std::vector<std::string> stale_baselines(const scenario::RegressionSuite& suite,
                                         const scenario::RegressionBaselines& baselines) {
  std::vector<std::string> out;
  for (const auto& [name, metrics] : baselines)
    for (const auto& [metric, value] : metrics) {
      bool compared = false;
      for (const auto& c : suite.cases)
        if (c.name == name)
          for (const auto& m : c.metrics) compared = compared || m.name == metric;
      if (!compared) out.push_back(name + ": " + metric);
    }
  return out;
}

/// Loads every case's scenario as its process will (its plugins, its policy overrides), before any case
/// runs: a missing or invalid plugin, an unknown policy or a broken scenario exits 2 at once.
void check_cases(const core::FileSource& files, const scenario::RegressionSuite& suite,
                 const std::vector<std::string>& plugins) {
  for (const auto& c : suite.cases) {
    scenario::Catalog catalog;
    plugin::load_plugins(plugins, catalog);
    plugin::load_plugins(c.plugins, catalog);
    core::OverlayFileSource patched(files,
                                    {{c.scenario, scenario::regression_case_scenario(files, c).dump()}});
    try {
      plugin::load_scenario(patched, c.scenario, catalog);
    } catch (const core::InputError& e) {
      throw core::InputError(suite.file, "", "case \"" + c.name + "\": " + e.what());
    }
  }
}

}  // namespace

RegressionRun run_regression(const core::FileSource& files, const RegressionOptions& options) {
  RegressionRun run{scenario::RegressionSuite::load(files, options.suite), {}, {}};
  const scenario::RegressionBaselines baselines = scenario::load_regression_baselines(files, run.suite);
  // The outputs, before any case runs: the suite, its cases' scenarios and plugins are never replaced;
  // the baselines only by --update-baselines, and only where a baselines file (or nothing) is.
  std::vector<std::string> inputs = files.files_read();
  for (const auto& c : run.suite.cases) {
    inputs.push_back(core::absolute_path(c.scenario));
    for (const auto& p : c.plugins) inputs.push_back(core::absolute_path(p));
  }
  for (const auto& p : options.plugins) inputs.push_back(core::absolute_path(p));
  std::vector<std::string> others = inputs;
  std::erase(others, core::absolute_path(run.suite.baselines));
  core::CommandOutputs outputs(others);
  const core::OutputFile baselines_file = output::output_file(
      output::OutputFormat::kBaselines, "--update-baselines", run.suite.baselines, false, others);
  if (options.update_baselines) outputs.add_file(baselines_file);
  if (!options.junit.empty()) {
    run.junit =
        output::output_file(output::OutputFormat::kJunit, "--junit", options.junit, options.force, inputs);
    outputs.add_file(*run.junit);
  }
  check_cases(files, run.suite, options.plugins);
  const std::vector<nlohmann::json> records = run_cases(options, run.suite.cases.size());
  for (size_t i = 0; i < records.size(); ++i)
    for (auto& check : scenario::check_case(run.suite.cases[i], records[i], baselines))
      run.outcome.checks.push_back(std::move(check));
  run.outcome.stale = stale_baselines(run.suite, baselines);
  if (options.update_baselines) {
    const auto updated = updated_baselines(baselines, run.outcome.checks, run.outcome.baseline_changes);
    core::write_output_file(baselines_file,
                            scenario::regression_baselines_json(run.suite, updated).dump(2) + "\n");
  }
  return run;
}

void run_regression_case_process(const std::string& suite_file, size_t index, const std::string& record_file,
                                 const std::vector<std::string>& plugins) {
  core::DiskFileSource files;
  const scenario::RegressionSuite suite = scenario::RegressionSuite::load(files, suite_file);
  if (index >= suite.cases.size()) throw std::runtime_error("the suite has no case " + std::to_string(index));
  core::write_file_atomically(record_file, run_regression_case(files, suite, index, plugins).dump() + "\n");
}

}  // namespace zs::batch
