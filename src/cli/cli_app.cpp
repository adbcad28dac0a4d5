// zettasim subcommands: run, list.
#include "cli/cli_app.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/bundled_files.hpp"
#include "cli/goodput_command.hpp"
#include "cli/place_command.hpp"
#include "cli/results_folder.hpp"
#include "cli/scenario_simulation.hpp"
#include "cli/trace_commands.hpp"
#include "cli/validate_command.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "output/atomic_file.hpp"
#include "output/graph_writer.hpp"
#include "output/run_record.hpp"
#include "output/version.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"
#include "topology/machine_builder.hpp"
#include "topology/topology_metrics.hpp"

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

struct RunOptions {
  std::string scenario;
  std::string out_dir;
  bool quiet = false;
  std::string fidelity;  ///< overrides the scenario's when set
  bool force = false;    ///< replace an existing folder that zettasim did not write
  scenario::LoadLimits limits;
};

int run_scenario(const RunOptions& opt, std::ostream& out) {
  auto [files, path] = input_files(opt.scenario, kDefaultScenario);
  scenario::Scenario s = scenario::ScenarioLoader(*files, opt.limits).load(path);
  if (!opt.fidelity.empty()) s.fidelity = opt.fidelity;
  s.resolved["scenario"]["fidelity"] = s.fidelity;
  const std::filesystem::path dir = results_folder(opt.out_dir, s.name, opt.force);
  const engine::SimulationResult result = simulate_scenario(s, "--fidelity");

  std::string report = output::report_text(s, result);
  nlohmann::json config = s.resolved;
  config["zettasim_version"] = output::kVersion;
  write_results_folder(dir,
                       {{"summary.json", output::summary_json(s, result).dump(2) + "\n"},
                        {"config.json", config.dump(2) + "\n"},
                        {"report.txt", report}},
                       opt.force);
  if (!opt.quiet) out << report;
  out << "\nresults: " << dir.string() << "/ (summary.json, config.json, report.txt)\n";
  return 0;
}

struct TopoOptions {
  std::string file;
  std::string graph;
  uint64_t diameter_sources = 4096;
  scenario::LoadLimits limits;
};

int summarize_topology(const TopoOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  topology::Machine m = scenario::ScenarioLoader(files, opt.limits).load_machine(opt.file);
  auto s = topology::summarize(m, opt.diameter_sources);
  std::string models;
  for (const auto& [name, count] : s.units_by_model)
    models += (models.empty() ? "" : ", ") + name + ": " + std::to_string(count);
  out << "machine \"" << m.name << "\" (generator " << m.generator << ", " << opt.file << ")\n";
  out << "  units                 " << s.units << " (" << models << ")\n";
  out << "  switches              " << s.switches << "\n";
  if (s.memory_pools > 0) out << "  memory pools          " << s.memory_pools << "\n";
  if (!m.topology.optical_switches().empty()) {
    size_t active = 0;
    for (const auto& c : m.topology.circuits()) active += c.active_at_start ? 1 : 0;
    out << "  optical switches      " << m.topology.optical_switches().size() << " (" << active
        << " circuits set up at the start)\n";
  }
  if (!m.power_domains.empty()) {
    size_t most = 0;
    for (const auto& d : m.power_domains) most = std::max(most, d.units.size());
    out << "  power domains         " << m.power_domains.size() << " (up to " << most << " units each)\n";
  }
  out << "  links                 " << s.links << "\n";
  out << "  injection per unit    " << core::display(s.min_injection);
  if (s.max_injection != s.min_injection) out << " to " << core::display(s.max_injection);
  out << " per direction\n";
  out << "  diameter              " << s.diameter.hops << " links between units ("
      << (s.diameter.exact ? "exact, " : "lower bound, ") << "breadth-first from " << s.diameter.sources
      << " units)\n";
  out << "  bisection bandwidth   " << core::display(s.bisection)
      << " per direction (max-flow between the two halves of the units in topology order)\n";
  if (!opt.graph.empty()) {
    bool graphml = std::filesystem::path(opt.graph).extension() == ".graphml";
    if (!graphml && std::filesystem::path(opt.graph).extension() != ".dot")
      throw core::InputError(opt.graph, "", "the graph file must end in .dot or .graphml");
    try {
      output::write_file_atomically(opt.graph, graphml ? output::to_graphml(m) : output::to_dot(m));
    } catch (const std::runtime_error& e) {
      throw core::InputError(opt.graph, "", e.what());
    }
    out << "  graph written to      " << opt.graph << "\n";
  }
  return 0;
}

constexpr const char* kForceHelp =
    "Replace the output folder even if zettasim did not write it (a file is never replaced)";

/// One family's entries, one line each, each prefixed with `prefix`.
template <class Registry>
void list_family(const Registry& registry, const std::string& prefix, std::ostream& out) {
  for (const auto& e : registry.entries()) out << "  " << prefix << e.name << ": " << e.description << "\n";
}

/// Every family a scenario can name, from the catalog the commands use.
void list_builtins(const scenario::Catalog& catalog, std::ostream& out) {
  out << "policies:\n";
  list_family(catalog.policies.placement, "placement ", out);
  list_family(catalog.policies.collective, "collective ", out);
  out << "checkpoint interval rules (reliability/checkpoint/interval):\n";
  list_family(catalog.policies.checkpoint_rule, "", out);
  out << "topology generators (topology files' \"generator\"):\n";
  list_family(catalog.topology_generators, "", out);
  out << "workload generators (scenarios' workload/generator):\n";
  list_family(catalog.workload_generators, "", out);
}

}  // namespace

int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"zettasim: discrete-event simulator of disaggregated AI supercomputers"};
  app.set_version_flag("--version", std::string("zettasim ") + output::kVersion);
  app.require_subcommand(1);

  RunOptions run_opt;
  auto* run =
      app.add_subcommand("run", "Simulate one training iteration of a scenario and write its results");
  run->add_option("scenario", run_opt.scenario,
                  "Scenario file (default: the embedded scenarios/default.json)");
  run->add_option("--out", run_opt.out_dir, "Output folder (default: results/<scenario name>)");
  run->add_flag("--quiet", run_opt.quiet, "Print only where the results went");
  run->add_flag("--force", run_opt.force, kForceHelp);
  run->add_option("--fidelity", run_opt.fidelity,
                  "auto (default: exact up to 2^24 rank-ops, collapsed beyond), exact or collapsed");
  add_limit_options(run, run_opt.limits);
  GoodputOptions goodput_opt;
  auto* goodput = app.add_subcommand(
      "goodput",
      "Simulate days of training under failures (the scenario's reliability section): ETTR, goodput");
  goodput->add_option("scenario", goodput_opt.scenario, "Scenario file with a reliability section")
      ->required();
  goodput->add_option("--out", goodput_opt.out_dir,
                      "Output folder (default: results/<scenario name>-goodput)");
  goodput->add_option("--seeds", goodput_opt.seeds, "Monte Carlo seeds (default: the scenario's)")
      ->check(CLI::Range(uint32_t(1), uint32_t(100000)));
  goodput->add_flag("--quiet", goodput_opt.quiet, "Print only where the results went");
  goodput->add_flag("--force", goodput_opt.force, kForceHelp);
  goodput
      ->add_option("--max-events", goodput_opt.max_events,
                   "Refuse a run whose one seed expects more events (failures, stragglers, peer checkpoints)")
      ->check(CLI::Range(1.0, 1e12));
  add_limit_options(goodput, goodput_opt.limits);
  TopoOptions topo_opt;
  auto* topo = app.add_subcommand("topo", "Summarize a machine: part counts, injection, diameter, bisection");
  topo->add_option("file", topo_opt.file, "Machine or scenario file")->required();
  topo->add_option("--graph", topo_opt.graph, "Also write the graph (.dot or .graphml)");
  topo->add_option("--diameter-sources", topo_opt.diameter_sources,
                   "Breadth-first searches for the diameter (more units: a sampled lower bound)")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  add_limit_options(topo, topo_opt.limits);
  auto* list = app.add_subcommand(
      "list", "List every built-in family: policies, checkpoint rules, topology and workload generators");
  PlaceOptions place_opt;
  auto* place = app.add_subcommand(
      "place", "Place a scenario's job and print hop-bytes per communicator, without simulating");
  place->add_option("scenario", place_opt.scenario, "Scenario file")->required();
  place->add_option("--policy", place_opt.policies,
                    "Placement policy to evaluate (repeatable; default: the scenario's)");
  place->add_option("--sample", place_opt.sample, "Evaluate at most this many ranks (every k-th), scaled up")
      ->check(CLI::Range(uint64_t(1), uint64_t(1) << 32));
  add_limit_options(place, place_opt.limits);
  ValidateOptions validate_opt;
  auto* validate = app.add_subcommand(
      "validate",
      "Predict published throughput (Megatron-LM SC'21 Tables 1 and 2) through the scenario path");
  validate->add_option("file", validate_opt.file,
                       "Validation file (default: the embedded scenarios/validation/megatron-sc21.json)");
  validate->add_option("--out", validate_opt.out_dir, "Output folder (default: results/validate-<name>)");
  validate->add_option("--rows", validate_opt.rows, "Run only the rows whose name contains this text");
  validate->add_flag("--quiet", validate_opt.quiet, "Print only where the results went");
  validate->add_flag("--force", validate_opt.force, kForceHelp);
  auto* trace = app.add_subcommand("trace", "Generate, inspect, import or export a trace");
  trace->require_subcommand(1);
  TraceGenOptions gen_opt;
  auto* gen =
      trace->add_subcommand("gen", "Write the trace of a model under a parallel plan, or of a scenario");
  gen->add_option("input", gen_opt.input,
                  "Model file (kind transformer), scenario file, or Chakra trace prefix (imports it)")
      ->required();
  gen->add_option("--generator", gen_opt.generator,
                  "Workload generator for a model file: megatron, data-parallel");
  gen->add_option("--parallel", gen_opt.parallel,
                  "Plan keys for a model file, e.g. data_parallel=8,tensor_parallel=4,pipeline_parallel=2,"
                  "micro_batch=1,global_batch=64");
  gen->add_option(
      "--out", gen_opt.out,
      "Trace file to write: .json, or .cbor for the compact binary form (default: <trace name>.trace.json)");
  std::string inspect_input;
  auto* inspect =
      trace->add_subcommand("inspect", "Print a trace's totals: FLOPs, bytes per communicator, ops, memory");
  inspect->add_option("file", inspect_input, "Trace file, scenario file or Chakra trace prefix")->required();
  std::string export_input, export_dir;
  bool export_force = false;
  auto* export_chakra = trace->add_subcommand(
      "export-chakra", "Write a trace as MLCommons Chakra execution traces, one <name>.<rank>.et per rank");
  export_chakra->add_option("input", export_input, "Trace file, scenario file or Chakra trace prefix")
      ->required();
  export_chakra->add_option("--out", export_dir, "Folder to write (an earlier export there is replaced)")
      ->required();
  export_chakra->add_flag("--force", export_force, kForceHelp);

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    std::ostringstream text;
    int code = app.exit(e, text, text);
    out << text.str();
    return code;
  } catch (const CLI::ParseError& e) {
    // One line, like every other input error; the text is CLI11's, with any user text escaped.
    std::string what = e.what();
    if (const auto newline = what.find('\n'); newline != std::string::npos) what.resize(newline);
    std::string line;
    for (char c : what) line += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
    err << "zettasim: error: command line: " << line << " (see zettasim --help)\n";
    return 2;
  }

  try {
    if (*list) {
      list_builtins(scenario::Catalog(), out);
      return 0;
    }
    if (*run) return run_scenario(run_opt, out);
    if (*goodput) return run_goodput(goodput_opt, out);
    if (*topo) return summarize_topology(topo_opt, out);
    if (*gen) return generate_trace_file(gen_opt, out);
    if (*place) return print_placement_cost(place_opt, out);
    if (*validate) return run_validate(validate_opt, out);
    if (*inspect) return inspect_trace(inspect_input, out);
    if (*export_chakra) return export_chakra_files(export_input, export_dir, export_force, out);
  } catch (const core::InputError& e) {
    err << "zettasim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "zettasim: internal error: " << core::one_line(e.what()) << "\n";
    return 1;
  }
  return 1;
}

}  // namespace zs::cli
