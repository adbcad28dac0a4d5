// The goodput command: iteration time from the engine, then the Monte Carlo of failures and recovery.
#include "cli/goodput_command.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "cli/checkpoint_setup.hpp"
#include "cli/recovery_setup.hpp"
#include "cli/results_folder.hpp"
#include "cli/scenario_simulation.hpp"
#include "cli/text_columns.hpp"
#include "core/input_error.hpp"
#include "output/version.hpp"
#include "reliability/goodput_simulator.hpp"
#include "scenario/scenario_loader.hpp"
#include "workload/pool_residency.hpp"

namespace zs::cli {
namespace {

std::string with_ci(const reliability::Estimate& e, const char* format) {
  char a[64], b[64];
  std::snprintf(a, sizeof a, format, e.mean);
  std::snprintf(b, sizeof b, format, e.half_width);
  return std::string(a) + " +- " + b;
}

nlohmann::json estimate_json(const reliability::Estimate& e) {
  return {{"mean", e.mean}, {"ci95_half_width", e.half_width}};
}

/// What recovers the job's failed units: hot spares or re-placement onto idle units, and elastic shrink.
std::string recovery_text(const scenario::Scenario& s, const reliability::GoodputConfig& cfg,
                          const reliability::RePlacementSetup& re_placement) {
  std::string text = std::to_string(cfg.spares) + " hot spares";
  if (s.reliability->re_place) {
    text = std::to_string(s.machine.unit_count() - cfg.units) +
           " idle units as spares, failed ranks re-placed by the " + s.placement_policy + " policy";
    if (re_placement.reconfiguration > 0)
      text += " (optical reconfiguration " + core::display(core::Seconds(re_placement.reconfiguration)) + ")";
  }
  if (cfg.elastic)
    text += ", elastic shrink over " + std::to_string(cfg.replicas) + " data-parallel replicas";
  return text;
}

/// What the job uses of the fabric and the memory pools: the links the healthy iteration's traffic crossed
/// (either way), the pool each rank uses and what it keeps there (when any rank keeps data in one), and
/// the ranks' roles. A component on a machine without its kind of part is an input error.
reliability::JobComponents::FabricUse fabric_use(const scenario::Scenario& s, const std::string& file,
                                                 const policy::Placement& placement,
                                                 const engine::ReplayResult& healthy) {
  reliability::JobComponents::FabricUse use;
  const auto& rates = s.reliability->rates;
  if (std::none_of(rates.components.begin(), rates.components.end(),
                   [](const auto& c) { return c.fabric() || c.memory_pool(); }))
    return use;
  for (const auto& c : rates.components) {
    const bool no_ocs = c.per == "optical-port" && s.machine.topology.optical_switches().empty();
    const bool no_pool = c.memory_pool() && s.machine.topology.memories().empty();
    if (no_ocs || no_pool)
      throw core::InputError(file, "/reliability/failure_rates",
                             "component \"" + c.name + "\" of " + rates.file + " fails per " +
                                 (no_ocs ? "optical port" : "memory pool") + ", but machine \"" +
                                 s.machine.name + "\" has no " +
                                 (no_ocs ? "optical circuit switch" : "memory pool"));
  }
  const auto& bytes = healthy.link_bytes;
  use.links.resize(s.machine.topology.links().size(), 0);
  for (size_t l = 0; l < use.links.size() && 2 * l + 1 < bytes.size(); ++l)
    use.links[l] = bytes[2 * l] > 0 || bytes[2 * l + 1] > 0 ? 1 : 0;
  const auto kept_by_role = workload::pool_resident_bytes_by_role(s.trace);
  for (uint64_t r = 0; r < s.trace.mesh.size(); ++r) {
    use.class_of_rank.push_back(s.trace.role_of(r));
    use.pool_bytes_of_rank.push_back(kept_by_role[use.class_of_rank.back()]);
  }
  if (std::any_of(use.pool_bytes_of_rank.begin(), use.pool_bytes_of_rank.end(),
                  [](double b) { return b > 0; }))
    use.pool_of_rank = placement.pool_of_rank;
  else
    use.pool_bytes_of_rank.clear();
  return use;
}

}  // namespace

int run_goodput(const GoodputOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  scenario::Scenario s = scenario::ScenarioLoader(files, opt.limits).load(opt.scenario);
  if (!s.reliability)
    throw core::InputError(
        opt.scenario, "/reliability",
        "expected a reliability section (failure_rates, horizon, seeds, checkpoint, detection, "
        "restart, repair; optional spares) for goodput");
  const auto& rel = *s.reliability;
  const std::filesystem::path dir = results_folder(opt.out_dir, s.name + "-goodput", opt.force);
  // Checkpoint state: every rank's weights and optimizer state.
  double state = 0;
  for (const auto& role : s.trace.roles) {
    if (!role.memory)
      throw core::InputError(
          opt.scenario, "/reliability/checkpoint",
          "the trace states no memory for role \"" + role.name +
              "\", so the checkpoint size is unknown (a recorded trace: use a generated workload)");
    state += (role.memory->weights + role.memory->optimizer).value() *
             static_cast<double>(s.trace.ranks_per_role());
  }
  const auto placement_policy =
      policy::make_placement_policy(s.placement_policy, s.placement_map ? &*s.placement_map : nullptr);
  const policy::Placement placement = placement_policy->place({s.trace, s.machine, s.seed});
  // The healthy iteration first: the links its traffic crosses are the job's links and optical ports.
  const engine::SimulationResult iteration = simulate_scenario(s, opt.scenario);
  const reliability::JobComponents job(rel.rates, s.machine, placement.unit_of_rank,
                                       fabric_use(s, opt.scenario, placement, iteration.replay));

  reliability::GoodputConfig cfg;
  cfg.job = &job;
  reliability::RePlacementSetup re_placement;
  apply_recovery_setup(s, opt.scenario, job, *placement_policy, placement, re_placement, cfg);
  reliability::PeerCheckpoints peer;
  const CheckpointDescription checkpoint =
      apply_checkpoint_setup(s, opt.scenario, placement, state, peer, cfg);
  cfg.iteration = iteration.replay.iteration_time.value();
  cfg.tokens_per_iteration = s.trace.tokens_per_iteration;
  cfg.units = s.trace.mesh.size();
  cfg.horizon = rel.horizon;
  cfg.checkpoint = rel.checkpoint;
  cfg.max_events_per_seed = opt.max_events;
  const uint32_t seeds = opt.seeds > 0 ? opt.seeds : rel.seeds;
  reliability::GoodputSummary g;
  try {
    g = reliability::simulate_goodput(rel.rates, cfg, s.seed, seeds);
  } catch (const reliability::WorkLimitExceeded& e) {
    throw core::InputError(opt.scenario, "/reliability/horizon", e.what());
  }

  auto sec = [](double x) { return core::display(core::Seconds(x)); };
  std::string report = "zettasim " + std::string(output::kVersion) + ": goodput of scenario \"" + s.name +
                       "\" (" + opt.scenario + ")\n";
  auto row = [&](const std::string& label, const std::string& value) {
    report += "  " + column(label, 28) + value + "\n";
  };
  row("iteration", sec(cfg.iteration) + " (" + iteration.replay.fidelity + " replay)");
  row("units", std::to_string(cfg.units));
  row("failure rates", rel.rates.name + ": job MTBF " + sec(g.mtbf));
  row("checkpoint",
      checkpoint.text + ", every " + sec(g.interval) + " of work (" + rel.checkpoint.describe() + ")");
  row("recovery", recovery_text(s, cfg, re_placement));
  row("horizon", sec(cfg.horizon) + ", " + std::to_string(seeds) + " seeds (mean +- 95% CI)");
  row("ETTR", with_ci(g.ettr, "%.4f"));
  row("goodput", with_ci(g.goodput, "%.4g") + " tokens/s");
  row("failures", with_ci(g.failures, "%.1f"));
  row("interruptions", with_ci(g.interruptions, "%.1f"));
  if (cfg.peer != nullptr)
    row("persistent restores", with_ci(g.persistent_restores, "%.1f") + " (a rank and its peer lost)");
  report += "  time lost, per seed\n";
  for (const auto& [cause, e] : g.lost)
    report += "    " + column(cause, 26) + sec(e.mean) + " (" +
              with_ci({e.mean / cfg.horizon, e.half_width / cfg.horizon}, "%.4f") + " of the horizon)\n";
  report += "  failures by component, per seed (instances in the job)\n";
  for (uint32_t c = 0; c < rel.rates.components.size(); ++c) {
    const auto& comp = rel.rates.components[c];
    report += "    " + column(comp.name, 26) + with_ci(g.by_component.at(comp.name), "%.1f") + " (" +
              std::to_string(job.instances(c)) + " per " + comp.per + ")\n";
  }
  report +=
      "approximations:\n"
      "  - iterations are not replayed over the horizon: each takes the simulated iteration time of the\n"
      "    machine's current state (healthy, or with the stragglers and degraded links in force, simulated\n"
      "    once per state; drawn stragglers are keyed by their rank's role, taken to cost the same); the\n"
      "    machine after a swap is taken as healthy\n"
      "  - re-placement (spares from idle units): ranks stay where they were moved; the iteration is the\n"
      "    slowest of the displaced ranks' own, each simulated alone once per (role, links from its first\n"
      "    unit, island left or not), and the slower of that and the stragglers'; a topology domain's\n"
      "    failure stops the ranks running behind it now, but its failure rate counts the domains the job\n"
      "    started on\n"
      "  - the checkpoint is every rank's weights and optimizer state; a synchronous one blocks for the\n"
      "    write, an asynchronous one for the snapshot, then drains in the background\n"
      "  - peer memory: snapshots sit in HBM beside the footprint (own and peer's; double buffering of a\n"
      "    snapshot being taken is not counted); a replaced part's HBM is lost, a crashed process's\n"
      "    snapshot is kept (held by a separate agent); drains to the persistent tier do not slow training\n"
      "  - failures are independent per component instance; a rack, switch or power domain takes down the\n"
      "    units behind it in the topology\n"
      "  - links and optical ports: the job's are those its healthy iteration's traffic crossed; "
      "a failed one\n"
      "    is out of service until repaired (a bundle loses its share, a port is re-patched to a free port\n"
      "    of its switch cabled to the same node when there is one); the iteration with parts out is\n"
      "    simulated once per (link class, share lost): links of the same model, tiers and rank roles at\n"
      "    their ends are taken to cost the same; a link whose loss cuts ranks off has them replaced; a\n"
      "    degraded iteration simulated shorter than the healthy one (routes hashed differently around\n"
      "    a failed link) counts as healthy\n"
      "  - memory pools: the job's are those its ranks keep data in (the larger of what a rank writes to\n"
      "    its pool and reads back per iteration); a failed one restarts the job with its ranks' data in\n"
      "    the nearest healthy pools with room (in links from the failed pool) until repaired, the\n"
      "    iteration simulated once per set of pools out; with no room\n"
      "    anywhere the job waits for the repair\n"
      "  - elastic shrink: replicas rejoin when repaired, at no cost\n";

  nlohmann::json result = {{"scenario", s.name},
                           {"iteration_time_s", cfg.iteration},
                           {"units", cfg.units},
                           {"job_mtbf_s", g.mtbf},
                           {"checkpoint_state_bytes", state},
                           {"checkpoint_cost_s", cfg.checkpoint_cost},
                           {"checkpoint_interval_s", g.interval},
                           {"horizon_s", cfg.horizon},
                           {"seeds", seeds},
                           {"ettr", estimate_json(g.ettr)},
                           {"goodput_tokens_per_s", estimate_json(g.goodput)},
                           {"failures", estimate_json(g.failures)},
                           {"interruptions", estimate_json(g.interruptions)},
                           {"checkpoint", checkpoint.json},
                           {"zettasim_version", output::kVersion}};
  if (rel.re_place) {
    nlohmann::json displaced = nlohmann::json::array();
    for (const auto& [key, seconds] : re_placement.iteration_by_key) {
      const auto& [role, hops, left_island] = key;
      displaced.push_back({{"role", s.trace.roles.at(role).name},
                           {"links_from_first_unit", hops},
                           {"left_island", left_island},
                           {"iteration_time_s", seconds}});
    }
    result["re_placement"] = {{"idle_units", s.machine.unit_count() - cfg.units},
                              {"optical_reconfiguration_s", re_placement.reconfiguration},
                              {"displaced_iterations", displaced}};
  }
  if (cfg.peer != nullptr) result["persistent_restores"] = estimate_json(g.persistent_restores);
  nlohmann::json degraded = nlohmann::json::array();  // in key order: deterministic
  for (const auto& [key, state] : cfg.degraded_states)
    degraded.push_back({{"state", state.description}, {"iteration_time_s", state.simulated}});
  result["degraded_iterations"] = degraded;
  for (const auto& [cause, e] : g.lost) result["lost_s"][cause] = estimate_json(e);
  for (const auto& [name, e] : g.by_component) result["failures_by_component"][name] = estimate_json(e);
  for (uint32_t c = 0; c < rel.rates.components.size(); ++c)
    result["instances_by_component"][rel.rates.components[c].name] = job.instances(c);
  nlohmann::json timeline = nlohmann::json::array();
  for (const auto& ev : g.first.timeline)
    timeline.push_back({{"at_s", ev.at},
                        {"component", ev.component},
                        {"instance", ev.instance},
                        {"name", ev.instance_name},
                        {"action", ev.action}});
  result["timeline_first_seed"] = timeline;
  nlohmann::json config = s.resolved;
  config["zettasim_version"] = output::kVersion;

  write_results_folder(dir,
                       {{"goodput.json", result.dump(2) + "\n"},
                        {"config.json", config.dump(2) + "\n"},
                        {"report.txt", report}},
                       opt.force);
  if (!opt.quiet) out << report;
  out << "\nresults: " << dir.string() << "/ (goodput.json, config.json, report.txt)\n";
  return 0;
}

}  // namespace zs::cli
