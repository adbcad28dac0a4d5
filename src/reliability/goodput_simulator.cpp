// Monte Carlo of training under failures: the seeds, their estimates, the bound on work.
#include "reliability/goodput_simulator.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

#include "core/splitmix.hpp"
#include "core/units.hpp"
#include "reliability/goodput_simulation.hpp"

namespace zs::reliability {

GoodputRun simulate_goodput_once(const FailureRates& rates, const GoodputConfig& cfg, double interval,
                                 uint64_t seed, bool keep_timeline) {
  return GoodputSimulation(rates, cfg, interval, seed, keep_timeline).run();
}

namespace {
Estimate estimate(const std::vector<double>& xs) {
  Estimate e;
  const double n = static_cast<double>(xs.size());
  for (double x : xs) e.mean += x / n;
  if (xs.size() > 1) {
    double var = 0;
    for (double x : xs) var += (x - e.mean) * (x - e.mean) / (n - 1);
    e.half_width = 1.96 * std::sqrt(var / n);
  }
  return e;
}
}  // namespace

namespace {

/// Refuses a run whose one seed expects more events than the config allows, before any is simulated.
void check_expected_events(const GoodputConfig& cfg, double mtbf, double interval) {
  const double failures = cfg.horizon.value() / mtbf;
  const double stragglers =
      cfg.stragglers.rate_per_unit_hour * static_cast<double>(cfg.units) * cfg.horizon.value() / 3600.0;
  const double cycles =
      cfg.peer != nullptr ? cfg.horizon.value() / (interval + cfg.checkpoint_cost.value()) : 0.0;
  const double events = failures + stragglers + cycles;
  if (events <= cfg.max_events_per_seed) return;
  char text[320];
  std::snprintf(
      text, sizeof text,
      "one seed of this horizon expects %.3g events (%.3g failures at a job MTBF of %s, %.3g stragglers, "
      "%.3g peer checkpoints), over the limit of %.3g: check the horizon and the failure table's "
      "observed durations, or raise the limit with --max-events",
      events, failures, core::display(core::Seconds(mtbf)).c_str(), stragglers, cycles,
      cfg.max_events_per_seed);
  throw WorkLimitExceeded(text);
}

}  // namespace

GoodputSummary simulate_goodput(const FailureRates& rates, const GoodputConfig& cfg, uint64_t seed,
                                uint32_t seeds, core::ProgressSink* progress) {
  GoodputSummary s;
  s.seeds = seeds;
  std::optional<JobComponents> own;
  const JobComponents& job = cfg.job != nullptr ? *cfg.job : own.emplace(rates, cfg.units);
  s.mtbf = 3600.0 / job.rate_per_hour();
  s.interval = cfg.checkpoint.interval(s.mtbf, cfg.checkpoint_cost.value());
  check_expected_events(cfg, s.mtbf, s.interval);
  std::vector<double> ettr, goodput, failures, interruptions, persistent_restores;
  std::map<std::string, std::vector<double>> lost, by_component;
  for (const auto& c : rates.components) by_component[c.name];
  for (uint32_t k = 0; k < seeds; ++k) {
    GoodputRun run = simulate_goodput_once(rates, cfg, s.interval, core::splitmix64(seed + k), k == 0);
    ettr.push_back(run.useful / cfg.horizon.value());
    goodput.push_back(run.useful / cfg.iteration.value() * cfg.tokens_per_iteration / cfg.horizon.value());
    failures.push_back(static_cast<double>(run.failures));
    interruptions.push_back(static_cast<double>(run.interruptions));
    persistent_restores.push_back(static_cast<double>(run.persistent_restores));
    lost["recompute"].push_back(run.recompute);
    lost["checkpoint"].push_back(run.checkpoint);
    lost["detection"].push_back(run.detection);
    lost["restart"].push_back(run.restart);
    lost["waiting"].push_back(run.waiting);
    lost["degraded"].push_back(run.degraded);
    for (auto& [name, values] : by_component) {
      auto it = run.by_component.find(name);
      values.push_back(it == run.by_component.end() ? 0.0 : static_cast<double>(it->second));
    }
    if (k == 0) s.first = std::move(run);
    if (progress != nullptr) progress->report({double(k + 1), double(seeds), "seeds"});
  }
  s.ettr = estimate(ettr);
  s.goodput = estimate(goodput);
  s.failures = estimate(failures);
  s.interruptions = estimate(interruptions);
  s.persistent_restores = estimate(persistent_restores);
  for (const auto& [name, values] : lost) s.lost[name] = estimate(values);
  for (const auto& [name, values] : by_component) s.by_component[name] = estimate(values);
  return s;
}

}  // namespace zs::reliability
