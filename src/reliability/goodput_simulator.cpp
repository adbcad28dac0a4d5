// Monte Carlo of training under failures.
#include "reliability/goodput_simulator.hpp"

#include <algorithm>
#include <cmath>

#include "core/splitmix.hpp"
#include "reliability/failure_clock.hpp"
#include "reliability/spare_pool.hpp"

namespace zs::reliability {

GoodputRun simulate_goodput_once(const policy::FailureRates& rates, const GoodputConfig& cfg, double interval,
                                 uint64_t seed, bool keep_timeline) {
  GoodputRun run;
  FailureClock clock(rates, cfg.units, seed);
  SparePool spares(cfg.spares, cfg.repair);
  const double tau = interval, delta = cfg.checkpoint_cost, cycle = tau + delta, H = cfg.horizon;
  double t = 0, pos = 0;  // wall time; position in the current work + checkpoint cycle
  bool corrupted = false;

  auto note = [&](double at, const std::string& component, uint64_t instance, const std::string& action) {
    if (keep_timeline) run.timeline.push_back({at, component, instance, action});
  };
  // Checkpoint time spent moving from position a to b of one cycle (b <= cycle).
  auto checkpoint_part = [&](double a, double b) { return std::max(0.0, b - std::max(a, tau)); };

  // Charges the downtime phases (detection, waiting for a swap or repair, restart) that begin at `from`
  // for the time up to `until`.
  auto charge_downtime = [&](double from, double until, const double(&phases)[3]) {
    double* sinks[3] = {&run.detection, &run.waiting, &run.restart};
    for (int k = 0; k < 3; ++k) {
      *sinks[k] += std::clamp(until - from, 0.0, phases[k]);
      from += phases[k];
    }
  };
  // Counts failure f; returns its component.
  auto count = [&](const Failure& f) -> const policy::ComponentRate& {
    const auto& comp = rates.components[f.component];
    ++run.failures;
    ++run.by_component[comp.name];
    return comp;
  };
  // The job stops for a (non-silent) failure at `at`: returns the wait for a swap or repair it needs.
  auto interrupt = [&](const Failure& f, const policy::ComponentRate& comp, double at, const char* when) {
    ++run.interruptions;
    std::string action = "restart";
    double wait = 0;
    if (comp.recovery == policy::Recovery::kReplace)
      wait = spares.replace(rates.units_taken(comp, cfg.units), at, cfg.swap, action);
    note(at, comp.name, f.instance, action + when);
    return wait;
  };

  // Downtime from `start` for a failure needing `wait` (swap or repair) between detection and restart;
  // failures in the meantime start it again. Returns when the job runs again (or the horizon).
  auto recover = [&](double start, double detection, double wait) {
    for (double at = start;;) {
      const double phases[3] = {detection, wait, cfg.restart};
      const double end = at + phases[0] + phases[1] + phases[2];
      if (clock.next().at >= end || clock.next().at >= H) {
        charge_downtime(at, std::min(end, H), phases);
        return std::min(end, H);
      }
      const Failure f = clock.pop();
      const auto& comp = count(f);
      if (comp.silent) continue;  // the state is reloaded at restart: a corruption now does no harm
      charge_downtime(at, f.at, phases);
      wait = interrupt(f, comp, f.at, " (during recovery)");
      at = f.at;
      detection = cfg.detection;
    }
  };

  while (t < H) {
    const double stop = std::min(clock.next().at, H);
    // Run until `stop`: finish the current cycle, skip whole cycles, then the partial one.
    if (stop - t >= cycle - pos) {
      run.checkpoint += checkpoint_part(pos, cycle);
      t += cycle - pos;
      pos = 0;
      if (corrupted) {  // validation of this checkpoint finds the corruption: roll back one cycle
        corrupted = false;
        run.recompute += tau;
        ++run.interruptions;
        note(t, "sdc", 0, "rollback (corruption found at checkpoint validation)");
        t = recover(t, 0, 0);
        continue;
      }
      ++run.checkpoints;
      run.useful += tau;
      const double k = std::floor((stop - t) / cycle);
      run.useful += k * tau;
      run.checkpoint += k * delta;
      run.checkpoints += static_cast<uint64_t>(k);
      t += k * cycle;
    }
    run.checkpoint += checkpoint_part(pos, pos + (stop - t));
    pos += stop - t;
    t = stop;
    if (t >= H) break;

    const Failure f = clock.pop();
    const auto& comp = count(f);
    if (comp.silent) {
      corrupted = true;
      continue;
    }
    run.recompute += std::min(pos, tau);
    pos = 0;
    corrupted = false;
    const double wait = interrupt(f, comp, t, "");
    t = recover(t, cfg.detection, wait);
  }
  run.useful += std::min(pos, tau);  // progress not yet checkpointed at the horizon is kept
  return run;
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

GoodputSummary simulate_goodput(const policy::FailureRates& rates, const GoodputConfig& cfg, uint64_t seed,
                                uint32_t seeds) {
  GoodputSummary s;
  s.seeds = seeds;
  s.mtbf = 3600.0 / rates.job_rate_per_hour(cfg.units);
  s.interval = cfg.checkpoint.interval(s.mtbf, cfg.checkpoint_cost);
  std::vector<double> ettr, goodput, failures, interruptions;
  std::map<std::string, std::vector<double>> lost, by_component;
  for (const auto& c : rates.components) by_component[c.name];
  for (uint32_t k = 0; k < seeds; ++k) {
    GoodputRun run = simulate_goodput_once(rates, cfg, s.interval, core::splitmix64(seed + k), k == 0);
    ettr.push_back(run.useful / cfg.horizon);
    goodput.push_back(run.useful / cfg.iteration * cfg.tokens_per_iteration / cfg.horizon);
    failures.push_back(static_cast<double>(run.failures));
    interruptions.push_back(static_cast<double>(run.interruptions));
    lost["recompute"].push_back(run.recompute);
    lost["checkpoint"].push_back(run.checkpoint);
    lost["detection"].push_back(run.detection);
    lost["restart"].push_back(run.restart);
    lost["waiting"].push_back(run.waiting);
    for (auto& [name, values] : by_component) {
      auto it = run.by_component.find(name);
      values.push_back(it == run.by_component.end() ? 0.0 : static_cast<double>(it->second));
    }
    if (k == 0) s.first = std::move(run);
  }
  s.ettr = estimate(ettr);
  s.goodput = estimate(goodput);
  s.failures = estimate(failures);
  s.interruptions = estimate(interruptions);
  for (const auto& [name, values] : lost) s.lost[name] = estimate(values);
  for (const auto& [name, values] : by_component) s.by_component[name] = estimate(values);
  return s;
}

}  // namespace zs::reliability
