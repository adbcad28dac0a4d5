// `zettasim run`, `goodput`, `topo`, `place` and `validate`: load, call the study, write what output formats.
#include <algorithm>
#include <filesystem>

#include "batch/progress_line.hpp"
#include "cli/bundled_files.hpp"
#include "cli/commands.hpp"
#include "cli/run_views.hpp"
#include "core/file_kind.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "output/goodput_report.hpp"
#include "output/goodput_timeline.hpp"
#include "output/graph_writer.hpp"
#include "output/output_formats.hpp"
#include "output/placement_report.hpp"
#include "output/published_runs_report.hpp"
#include "output/results_folder.hpp"
#include "output/run_record.hpp"
#include "output/topology_report.hpp"
#include "output/validation_report.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "study/placement_study.hpp"
#include "study/published_runs_study.hpp"
#include "study/scenario_simulation.hpp"
#include "study/validation_study.hpp"
#include "topology/topology_metrics.hpp"

namespace zs::cli {
namespace {

/// Writes the folder, prints the report unless quiet, then where the results went.
void write_and_print(const std::filesystem::path& dir, const FolderOptions& folder,
                     const std::vector<std::pair<std::string, std::string>>& files, const std::string& report,
                     std::ostream& out) {
  output::write_results_folder(dir, files, folder.force);
  if (!folder.quiet) out << report;
  std::string names;
  for (const auto& [name, content] : files) names += (names.empty() ? "" : ", ") + name;
  out << "\nresults: " << dir.string() << "/ (" << names << ")\n";
}

/// `zettasim validate`'s input: a file on disk, the name of a shipped validation ("at-scale": the embedded
/// scenarios/validation/at-scale.json; "megatron-2022" likewise), or, with none, the embedded Megatron-LM
/// SC'21 file.
InputFiles validation_input(const std::string& file) {
  const std::string bundled = std::string(kValidationFolder) + file + ".json";
  if (!file.empty() && file.find('/') == std::string::npos && !file.ends_with(".json")) {
    auto shipped = bundled_files();
    if (shipped.count(bundled) > 0)
      return {std::make_unique<core::BundledFileSource>(std::move(shipped)), bundled};
  }
  return input_files(file, kDefaultValidation);
}

/// --set's "POINTER=VALUE" entries: the value parsed as JSON, or kept as a string when it is not JSON.
std::vector<scenario::RunOverride> run_overrides(const std::vector<std::string>& entries) {
  std::vector<scenario::RunOverride> out;
  for (const std::string& entry : entries) {
    const auto eq = entry.find('=');
    if (eq == std::string::npos || entry.front() != '/')  // an empty entry has no '='
      throw core::InputError("--set", "",
                             "expected POINTER=VALUE with a JSON pointer such as "
                             "/workload/overlap_tensor_communication=false, got \"" +
                                 entry + "\"");
    const std::string text = entry.substr(eq + 1);
    nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_discarded()) value = text;
    const std::string pointer = entry.substr(0, eq);
    for (const auto& earlier : out)
      if (earlier.pointer == pointer)
        throw core::InputError("--set", pointer,
                               "set twice (" + earlier.value.dump() + ", then " + value.dump() +
                                   "): give each parameter one --set");
    out.push_back({pointer, std::move(value)});
  }
  return out;
}

/// A published-runs validation: every run's scenario simulated, compared, written.
int run_published_runs(const ValidateOptions& opt, const core::FileSource& files, const std::string& path,
                       std::ostream& out) {
  scenario::PublishedRunsSpec spec = scenario::PublishedRunsSpec::load(files, path);
  spec.overrides = run_overrides(opt.set);
  if (!opt.rows.empty()) {
    std::erase_if(spec.runs, [&](const auto& r) { return r.name.find(opt.rows) == std::string::npos; });
    if (spec.runs.empty()) throw core::InputError("--rows", "", "no run name contains \"" + opt.rows + "\"");
    // A scaling series is checked only when all its runs are run.
    std::erase_if(spec.scaling, [&](const auto& series) {
      return std::any_of(series.runs.begin(), series.runs.end(),
                         [&](const std::string& name) { return name.find(opt.rows) == std::string::npos; });
    });
  }
  const auto dir = output::results_folder(opt.folder.out_dir, "validate-" + spec.name, opt.folder.force);
  batch::ProgressLine progress = batch::ProgressLine::for_stderr(opt.folder.quiet);
  const study::PublishedRunsStudy study =
      study::run_published_runs(files, spec, opt.folder.quiet ? nullptr : &progress);
  progress.finish();
  const std::string report = output::published_runs_report(spec, study);
  write_and_print(dir, opt.folder,
                  {{"validation.json", output::published_runs_json(spec, study).dump(2) + "\n"},
                   {"validation.csv", output::published_runs_csv(study)},
                   {"report.txt", report}},
                  report, out);
  return study.summary.passed ? 0 : 1;
}

}  // namespace

int run_scenario(const RunOptions& opt, std::ostream& out) {
  auto [files, path] = input_files(opt.scenario, kDefaultScenario);
  scenario::Catalog catalog;
  plugin::load_plugins(opt.plugins, catalog);
  scenario::Scenario s = plugin::load_scenario(*files, path, catalog, opt.limits);
  if (!opt.fidelity.empty()) {
    const auto fidelity = core::parse_fidelity(opt.fidelity);
    if (!fidelity)
      throw core::InputError("--fidelity", "",
                             "expected auto, exact or collapsed, got \"" + opt.fidelity + "\"");
    s.fidelity = *fidelity;
  }
  s.resolved["fidelity"] = core::to_string(s.fidelity);
  const auto dir = output::results_folder(opt.folder.out_dir, s.name, opt.folder.force);
  const std::vector<std::string> inputs = command_inputs(*files, opt.plugins);
  core::CommandOutputs outputs(inputs);
  outputs.add_folder("--out", dir);
  const RunViews views = check_views(opt.timeline, s, outputs, opt.folder.force, inputs);
  batch::ProgressLine progress = batch::ProgressLine::for_stderr(opt.folder.quiet);
  const engine::SimulationResult result =
      study::simulate_scenario(s, catalog.policies, views.any(), opt.folder.quiet ? nullptr : &progress);
  progress.finish();
  const std::string report = output::report_text(s, result);
  write_and_print(dir, opt.folder,
                  {{"summary.json", output::summary_json(s, result).dump(2) + "\n"},
                   {"config.json", output::config_json(s).dump(2) + "\n"},
                   {"report.txt", report}},
                  report, out);
  write_views(views, opt.timeline, s, result, out);
  return 0;
}

int run_goodput(const GoodputOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  scenario::Catalog catalog;
  plugin::load_plugins(opt.plugins, catalog);
  const auto held = std::make_shared<const scenario::Scenario>(
      plugin::load_scenario(files, opt.scenario, catalog, opt.limits));
  const scenario::Scenario& s = *held;
  study::require_reliability_section(s, opt.scenario);
  const auto dir = output::results_folder(opt.folder.out_dir, s.name + "-goodput", opt.folder.force);
  batch::ProgressLine progress = batch::ProgressLine::for_stderr(opt.folder.quiet);
  study::GoodputStudyOptions options = opt.study;
  options.progress = opt.folder.quiet ? nullptr : &progress;
  const std::vector<std::string> inputs = command_inputs(files, opt.plugins);
  core::CommandOutputs outputs(inputs);
  outputs.add_folder("--out", dir);
  const core::OutputFile timeline = output::output_file(output::OutputFormat::kTimeline, "--timeline",
                                                        opt.timeline, opt.folder.force, inputs);
  if (!opt.timeline.empty()) outputs.add_file(timeline);
  const study::GoodputStudy g = study::run_goodput_study(held, opt.scenario, options, catalog.policies);
  progress.finish();
  const std::string report = output::goodput_report(s, opt.scenario, g);
  write_and_print(dir, opt.folder,
                  {{"goodput.json", output::goodput_json(s, g).dump(2) + "\n"},
                   {"config.json", output::config_json(s).dump(2) + "\n"},
                   {"report.txt", report}},
                  report, out);
  if (!opt.timeline.empty()) {
    core::write_output_file(timeline, output::goodput_timeline_json(s, g));
    out << "timeline: " << opt.timeline << " (" << g.summary.first.timeline.size()
        << " interruptions of the first seed; open in ui.perfetto.dev or chrome://tracing)\n";
  }
  return 0;
}

int summarize_topology(const TopoOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  const topology::Machine m = scenario::ScenarioLoader(files, opt.limits).load_machine(opt.file);
  const core::OutputFile graph =
      output::output_file(output::OutputFormat::kGraph, "--graph", opt.graph, opt.force, files.files_read());
  if (!opt.graph.empty()) core::check_output_file(graph);
  out << output::topology_report(m, opt.file, topology::summarize(m, opt.diameter_sources));
  if (!opt.graph.empty()) {
    output::write_graph_file(m, graph);
    out << "  graph written to      " << opt.graph << "\n";
  }
  return 0;
}

int print_placement_cost(const PlaceOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  scenario::Catalog catalog;
  plugin::load_plugins(opt.plugins, catalog);
  const scenario::Scenario s = plugin::load_scenario(files, opt.scenario, catalog, opt.limits);
  out << output::placement_report(
      s, study::study_placements(s, opt.policies, opt.sample, "--policy", catalog.policies));
  return 0;
}

int run_validate(const ValidateOptions& opt, std::ostream& out) {
  auto [files, path] = validation_input(opt.file);
  if (scenario::validation_kind(*files, path) == core::FileKind::kPublishedRuns)
    return run_published_runs(opt, *files, path, out);
  scenario::ValidationSpec spec = scenario::ValidationSpec::load(*files, path);
  spec.overrides = run_overrides(opt.set);
  if (!opt.rows.empty()) {
    std::erase_if(spec.rows, [&](const auto& r) { return r.name().find(opt.rows) == std::string::npos; });
    if (spec.rows.empty()) throw core::InputError("--rows", "", "no row name contains \"" + opt.rows + "\"");
  }
  const auto dir = output::results_folder(opt.folder.out_dir, "validate-" + spec.name, opt.folder.force);
  batch::ProgressLine progress = batch::ProgressLine::for_stderr(opt.folder.quiet);
  const study::ValidationStudy validation =
      study::run_validation(*files, spec, opt.folder.quiet ? nullptr : &progress);
  progress.finish();
  const std::string report = output::validation_report(spec, validation);
  write_and_print(dir, opt.folder,
                  {{"validation.json", output::validation_json(spec, validation).dump(2) + "\n"},
                   {"validation.csv", output::validation_csv(validation)},
                   {"report.txt", report}},
                  report, out);
  return validation.summary.passed ? 0 : 1;
}

}  // namespace zs::cli
