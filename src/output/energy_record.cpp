// Energy and cost figures of a run, for summary.json and the report.
#include "output/energy_record.hpp"

#include <cmath>
#include <cstdio>

namespace zs::output {

namespace {

/// Tokens one iteration trains on; 0 when the trace does not say.
double tokens_per_iteration(const scenario::Scenario& s) {
  return s.trace.tokens_per_iteration;
}

nlohmann::json by_part(const topology::MachineEnergy& e) {
  return {{"units", e.units.value()},
          {"hosts", e.hosts.value()},
          {"unit_ports", e.unit_ports.value()},
          {"switch_ports", e.switch_ports.value()},
          {"memory_pools", e.memory_pools.value()},
          {"optical_switches", e.optical_switches.value()}};
}

/// What the whole training run takes: its iterations, time, facility energy and cost.
struct TrainingRun {
  double iterations = 0;
  core::Seconds time;
  core::Joules facility_energy;
  topology::RunCost cost;
};

TrainingRun training_run(const topology::CostSetting& cost, const engine::SimulationResult& r, double tokens,
                         double training_tokens) {
  TrainingRun run;
  run.iterations = training_tokens / tokens;
  run.time = r.replay.iteration_time * run.iterations;
  const core::Joules energy = r.energy.total() * run.iterations;
  run.facility_energy = topology::facility_energy(cost, energy);
  run.cost = topology::run_cost(cost, run.time, energy);
  return run;
}

nlohmann::json cost_json(const topology::CostSetting& cost, const engine::SimulationResult& r,
                         double tokens) {
  const auto iteration = topology::run_cost(cost, r.replay.iteration_time, r.energy.total());
  nlohmann::json out = {
      {"capital", std::string(topology::capital_costs().name(cost.capital))},
      {"per_iteration_usd", iteration.total_usd()},
      {"capital_per_iteration_usd", iteration.capital_usd},
      {"electricity_per_iteration_usd", iteration.electricity_usd},
      {"per_million_tokens_usd",
       tokens > 0 ? nlohmann::json(iteration.total_usd() / tokens * 1e6) : nlohmann::json()}};
  if (cost.training_tokens && tokens > 0) {
    const auto run = training_run(cost, r, tokens, *cost.training_tokens);
    out["training_run"] = {{"tokens", *cost.training_tokens},
                           {"iterations", run.iterations},
                           {"time_s", run.time.value()},
                           {"facility_energy_j", run.facility_energy.value()},
                           {"usd", run.cost.total_usd()}};
  }
  return out;
}

std::string days(core::Seconds t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g days", t.value() / 86400.0);
  return buf;
}

}  // namespace

std::string display_usd(double usd) {
  static constexpr struct {
    double scale;
    const char* suffix;
  } kScales[] = {{1e9, " B"}, {1e6, " M"}, {1e3, " k"}, {1.0, ""}};
  for (const auto& s : kScales)
    if (std::fabs(usd) >= s.scale || s.scale == 1.0) {
      char buf[48];
      std::snprintf(buf, sizeof buf, "$%.4g%s", usd / s.scale, s.suffix);
      return buf;
    }
  return "";
}

nlohmann::json energy_json(const scenario::Scenario& s, const engine::SimulationResult& r) {
  const double tokens = tokens_per_iteration(s);
  nlohmann::json out = {{"energy_per_iteration_j", r.energy.total().value()},
                        {"energy_by_part_j", by_part(r.energy)},
                        {"average_power_w", r.average_power.value()},
                        {"peak_power_w", r.power.peak().value()},
                        {"energy_per_token_j",
                         tokens > 0 ? nlohmann::json(r.energy.total().value() / tokens) : nlohmann::json()}};
  if (s.cost) {
    if (s.cost->pue)
      out["facility_energy_per_iteration_j"] = topology::facility_energy(*s.cost, r.energy.total()).value();
    out["cost"] = cost_json(*s.cost, r, tokens);
  }
  return out;
}

std::vector<ReportLine> energy_report_lines(const scenario::Scenario& s, const engine::SimulationResult& r) {
  const auto& e = r.energy;
  const double tokens = tokens_per_iteration(s);
  std::vector<ReportLine> out;
  out.push_back({"energy per iteration", core::display(e.total()),
                 "the whole machine, " + std::to_string(s.machine.unit_count()) + " units: average " +
                     core::display(r.average_power) + ", peak " + core::display(r.power.peak())});
  out.push_back({"  by part", "units " + core::display(e.units) + ",",
                 "hosts " + core::display(e.hosts) + ", unit ports " + core::display(e.unit_ports) +
                     ", switch ports " + core::display(e.switch_ports) + ", memory pools " +
                     core::display(e.memory_pools) + ", optical switches " +
                     core::display(e.optical_switches)});
  if (tokens > 0) out.push_back({"energy per token", core::display(e.total() / tokens), "the machine's"});
  if (!s.cost) return out;
  const auto& cost = *s.cost;
  if (cost.pue) {
    char pue[32];
    std::snprintf(pue, sizeof pue, "%.2f", *cost.pue);  // rounded, as the file's two decimals
    out.push_back({"facility energy", core::display(topology::facility_energy(cost, e.total())),
                   std::string("per iteration, the machine's x PUE ") + pue});
  }
  const auto iteration = topology::run_cost(cost, r.replay.iteration_time, e.total());
  const std::string capital = cost.capital == topology::CapitalCost::kPrices
                                  ? "part prices over their lifetimes"
                              : cost.capital == topology::CapitalCost::kRent ? "rent"
                                                                             : "no capital";
  out.push_back({"cost per iteration", display_usd(iteration.total_usd()),
                 capital + " " + display_usd(iteration.capital_usd) + " + electricity " +
                     display_usd(iteration.electricity_usd)});
  if (tokens > 0)
    out.push_back({"cost per million tokens", display_usd(iteration.total_usd() / tokens * 1e6), ""});
  if (cost.training_tokens && tokens > 0) {
    const auto run = training_run(cost, r, tokens, *cost.training_tokens);
    char iterations[48];
    std::snprintf(iterations, sizeof iterations, "%.4g tokens: %.4g iterations", *cost.training_tokens,
                  run.iterations);
    out.push_back({"training run", display_usd(run.cost.total_usd()),
                   std::string(iterations) + ", " + days(run.time) + ", " +
                       core::display(run.facility_energy) +
                       (cost.pue ? " at the facility" : " of the machine")});
  }
  return out;
}

}  // namespace zs::output
