// goodput.json and the goodput report.
#include "output/goodput_report.hpp"

#include <cstdio>

#include "core/version.hpp"
#include "output/energy_record.hpp"
#include "output/text_columns.hpp"

namespace zs::output {

namespace {

/// What a second of the machine costs, US dollars: the healthy iteration's capital and electricity over
/// its time (time lost to failures is costed at this rate: the machine is held and powered all along).
double cost_per_second(const topology::CostSetting& cost, const engine::SimulationResult& iteration) {
  const core::Seconds t = iteration.replay.iteration_time;
  return t.value() > 0 ? topology::run_cost(cost, t, iteration.energy.total()).total_usd() / t.value() : 0.0;
}

std::string with_ci(const reliability::Estimate& e, const char* format) {
  char a[64], b[64];
  std::snprintf(a, sizeof a, format, e.mean);
  std::snprintf(b, sizeof b, format, e.half_width);
  return std::string(a) + " +- " + b;
}

nlohmann::json estimate_json(const reliability::Estimate& e) {
  return {{"mean", e.mean}, {"ci95_half_width", e.half_width}};
}

std::string seconds(double s) {
  return core::display(core::Seconds(s));
}

/// What recovers the job's failed units: hot spares or re-placement onto idle units, and the recovery
/// policy that chooses among spares, a shrink and the repair.
std::string recovery_text(const scenario::Scenario& s, const study::GoodputStudy& g) {
  std::string text = std::to_string(g.spares) + " hot spares";
  if (s.reliability->re_place) {
    text = std::to_string(g.idle_units) + " idle units as spares, failed ranks re-placed by the " +
           s.placement_policy + " policy";
    if (g.optical_reconfiguration > 0)
      text += " (optical reconfiguration " + seconds(g.optical_reconfiguration) + ")";
  }
  text += ", policy " + g.recovery;
  if (g.shrinks) text += " (may shrink " + std::to_string(g.replicas) + " data-parallel replicas)";
  return text;
}

constexpr const char* kApproximations =
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
    "  - the checkpoint is a distributed one: each tensor once (16-bit weights, fp32 master weights and\n"
    "    Adam's moments; no gradients), every rank writing its share at once; a synchronous one blocks for\n"
    "    the write, an asynchronous one for the snapshot, then drains in the background\n"
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
    "  - elastic shrink: replicas rejoin when repaired, at no cost\n"
    "  - cost (with a cost section): time lost is costed at the healthy iteration's cost per second (the\n"
    "    machine held and powered all along, at the iteration's average power)\n";

}  // namespace

std::string goodput_report(const scenario::Scenario& s, const std::string& file,
                           const study::GoodputStudy& g) {
  const auto& rel = *s.reliability;
  const auto& sum = g.summary;
  const double iteration = g.iteration.replay.iteration_time.value();
  std::string report =
      "zettasim " + std::string(core::kVersion) + ": goodput of scenario \"" + s.name + "\" (" + file + ")\n";
  auto row = [&](const std::string& label, const std::string& value) {
    report += "  " + column(label, 28) + value + "\n";
  };
  row("iteration",
      seconds(iteration) + " (" + std::string(core::to_string(g.iteration.replay.fidelity)) + " replay)");
  row("units", std::to_string(g.units));
  row("failure rates", rel.rates.name + ": job MTBF " + seconds(sum.mtbf));
  row("checkpoint", g.checkpoint.text + ", every " + seconds(sum.interval) + " of work (" +
                        rel.checkpoint.describe() + ")");
  row("checkpoint per rank", core::display(core::Bytes(g.checkpoint_state_per_rank_max)) +
                                 " on the rank that writes most (each tensor once over the job)");
  row("recovery", recovery_text(s, g));
  row("horizon", seconds(g.horizon.value()) + ", " + std::to_string(g.seeds) + " seeds (mean +- 95% CI)");
  row("ETTR", with_ci(sum.ettr, "%.4f"));
  row("goodput", with_ci(sum.goodput, "%.4g") + " tokens/s");
  row("failures", with_ci(sum.failures, "%.1f"));
  row("interruptions", with_ci(sum.interruptions, "%.1f"));
  if (g.peer_checkpoints)
    row("persistent restores", with_ci(sum.persistent_restores, "%.1f") + " (a rank and its peer lost)");
  report += "  time lost, per seed\n";
  for (const auto& [cause, e] : sum.lost)
    report += "    " + column(cause, 26) + seconds(e.mean) + " (" +
              with_ci({e.mean / g.horizon.value(), e.half_width / g.horizon.value()}, "%.4f") +
              " of the horizon)\n";
  if (s.cost) {
    const double per_second = cost_per_second(*s.cost, g.iteration);
    double lost = 0;
    for (const auto& [cause, e] : sum.lost) lost += e.mean;
    row("cost of time lost", display_usd(lost * per_second) + " of " +
                                 display_usd(g.horizon.value() * per_second) +
                                 " over the horizon, per seed (the healthy iteration's cost per second)");
  }
  report += "  failures by component, per seed (instances in the job)\n";
  for (uint32_t c = 0; c < rel.rates.components.size(); ++c) {
    const auto& comp = rel.rates.components[c];
    report += "    " + column(comp.name, 26) + with_ci(sum.by_component.at(comp.name), "%.1f") + " (" +
              std::to_string(g.instances_by_component.at(c)) + " per " +
              std::string(reliability::to_string(comp.per)) + ")\n";
  }
  return report + kApproximations;
}

nlohmann::json goodput_json(const scenario::Scenario& s, const study::GoodputStudy& g) {
  const auto& rel = *s.reliability;
  const auto& sum = g.summary;
  nlohmann::json result = {{"scenario", s.name},
                           {"iteration_time_s", g.iteration.replay.iteration_time.value()},
                           {"units", g.units},
                           {"job_mtbf_s", sum.mtbf},
                           {"checkpoint_state_bytes", g.checkpoint_state},
                           {"checkpoint_state_bytes_per_rank_max", g.checkpoint_state_per_rank_max},
                           {"checkpoint_cost_s", g.checkpoint_cost.value()},
                           {"checkpoint_interval_s", sum.interval},
                           {"horizon_s", g.horizon.value()},
                           {"seeds", g.seeds},
                           {"ettr", estimate_json(sum.ettr)},
                           {"goodput_tokens_per_s", estimate_json(sum.goodput)},
                           {"failures", estimate_json(sum.failures)},
                           {"interruptions", estimate_json(sum.interruptions)},
                           {"checkpoint", g.checkpoint.json},
                           {"zettasim_version", core::kVersion}};
  if (rel.re_place) {
    nlohmann::json displaced = nlohmann::json::array();
    for (const auto& [key, iteration] : g.displaced_iterations) {
      const auto& [role, hops, left_island] = key;
      displaced.push_back({{"role", s.trace.roles.at(role).name},
                           {"links_from_first_unit", hops},
                           {"left_island", left_island},
                           {"iteration_time_s", iteration}});
    }
    result["re_placement"] = {{"idle_units", g.idle_units},
                              {"optical_reconfiguration_s", g.optical_reconfiguration},
                              {"displaced_iterations", displaced}};
  }
  if (g.peer_checkpoints) result["persistent_restores"] = estimate_json(sum.persistent_restores);
  nlohmann::json degraded = nlohmann::json::array();
  for (const auto& state : g.degraded_iterations)
    degraded.push_back({{"state", state.description}, {"iteration_time_s", state.simulated}});
  result["degraded_iterations"] = degraded;
  for (const auto& [cause, e] : sum.lost) result["lost_s"][cause] = estimate_json(e);
  if (s.cost) {
    const double per_second = cost_per_second(*s.cost, g.iteration);
    result["cost"] = {{"per_second_usd", per_second}, {"horizon_usd", g.horizon.value() * per_second}};
    for (const auto& [cause, e] : sum.lost) result["cost"]["lost_usd"][cause] = e.mean * per_second;
  }
  for (const auto& [name, e] : sum.by_component) result["failures_by_component"][name] = estimate_json(e);
  for (uint32_t c = 0; c < rel.rates.components.size(); ++c)
    result["instances_by_component"][rel.rates.components[c].name] = g.instances_by_component.at(c);
  nlohmann::json timeline = nlohmann::json::array();
  for (const auto& ev : sum.first.timeline)
    timeline.push_back({{"at_s", ev.at},
                        {"component", ev.component},
                        {"instance", ev.instance},
                        {"name", ev.instance_name},
                        {"action", ev.action}});
  result["timeline_first_seed"] = timeline;
  return result;
}

}  // namespace zs::output
