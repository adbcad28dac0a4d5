// Monte Carlo of training under failures.
#include "reliability/goodput_simulator.hpp"

#include <algorithm>
#include <cmath>
#include <queue>

#include "core/splitmix.hpp"

namespace zs::reliability {
namespace {

/// A platform-independent random stream (SplitMix64), so that a seed gives the same timeline everywhere.
class Stream {
 public:
  explicit Stream(uint64_t seed) : state_(seed) {}
  uint64_t next() { return core::splitmix64(state_ += 0x9e3779b97f4a7c15ull); }
  /// Uniform in (0, 1).
  double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  /// -ln(U): a unit-mean exponential.
  double exponential() { return -std::log(uniform()); }

 private:
  uint64_t state_;
};

struct Failure {
  double at;
  uint32_t component;
  uint64_t instance;
  bool operator>(const Failure& o) const {
    if (at != o.at) return at > o.at;
    if (component != o.component) return component > o.component;
    return instance > o.instance;
  }
};

/// The failure processes of every component instance. Exponential components are one merged process
/// (rate = instances x rate; the instance drawn uniformly); Weibull ones are renewal processes per
/// instance (a replaced or restarted instance starts a new lifetime).
class FailureClock {
 public:
  FailureClock(const policy::FailureRates& rates, uint64_t units, uint64_t seed)
      : rates_(rates), units_(units), stream_(seed) {
    for (uint32_t c = 0; c < rates.components.size(); ++c) {
      const auto& comp = rates.components[c];
      const uint64_t n = rates.instances(comp, units);
      if (comp.weibull_shape == 1.0) {
        queue_.push({lifetime(c, n), c, 0});
      } else {
        for (uint64_t i = 0; i < n; ++i) queue_.push({lifetime(c, 1), c, i});
      }
    }
  }
  const Failure& next() const { return queue_.top(); }
  /// Removes the next failure and schedules the next one of its process.
  Failure pop() {
    Failure f = queue_.top();
    queue_.pop();
    const auto& comp = rates_.components[f.component];
    if (comp.weibull_shape == 1.0) {
      const uint64_t n = rates_.instances(comp, units_);
      f.instance = stream_.next() % n;
      queue_.push({f.at + lifetime(f.component, n), f.component, 0});
    } else {
      queue_.push({f.at + lifetime(f.component, 1), f.component, f.instance});
    }
    return f;
  }

 private:
  /// A lifetime of one of `n` merged instances of component c, s.
  double lifetime(uint32_t c, uint64_t n) {
    const auto& comp = rates_.components[c];
    const double mean = 3600.0 / (comp.rate_per_hour * static_cast<double>(n));
    if (comp.weibull_shape == 1.0) return mean * stream_.exponential();
    const double scale = mean / std::tgamma(1 + 1 / comp.weibull_shape);
    return scale * std::pow(stream_.exponential(), 1 / comp.weibull_shape);
  }

  const policy::FailureRates& rates_;
  uint64_t units_;
  Stream stream_;
  std::priority_queue<Failure, std::vector<Failure>, std::greater<>> queue_;
};

/// The hot spare pool: spares in hand, and swapped-out units coming back from repair.
class SparePool {
 public:
  SparePool(uint64_t spares, double repair) : available_(spares), repair_(repair) {}

  /// Time from `now` until `need` failed units are replaced, and what happens meanwhile: spares in hand
  /// are swapped in (`swap`; the failed units join the pool after `repair`); without enough, the job
  /// waits for the failed units' own repair.
  double replace(uint64_t need, double now, double swap, std::string& action) {
    while (head_ < repairs_.size() && repairs_[head_].first <= now) available_ += repairs_[head_++].second;
    if (available_ >= need) {
      available_ -= need;
      repairs_.emplace_back(now + repair_, need);
      action = "swap " + std::to_string(need) + (need > 1 ? " spares" : " spare");
      return swap;
    }
    action = "wait for repair";
    return repair_;
  }

 private:
  uint64_t available_;
  double repair_;
  std::vector<std::pair<double, uint64_t>> repairs_;  ///< (back at, units), in time order
  size_t head_ = 0;
};

}  // namespace

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

  // Downtime from `start` for a failure needing `wait` (swap or repair) between detection and restart;
  // failures in the meantime start it again. Returns when the job runs again.
  auto recover = [&](double start, double detection, double wait) {
    double at = start;
    for (;;) {
      const double phases[3] = {detection, wait, cfg.restart};
      double* sinks[3] = {&run.detection, &run.waiting, &run.restart};
      const double end = at + phases[0] + phases[1] + phases[2];
      if (clock.next().at >= end || clock.next().at >= H) {
        const double stop = std::min(end, H);
        double p = at;
        for (int k = 0; k < 3; ++k) {
          const double d = std::clamp(stop - p, 0.0, phases[k]);
          *sinks[k] += d;
          p += phases[k];
        }
        return stop;
      }
      const Failure f = clock.pop();
      const auto& comp = rates.components[f.component];
      ++run.failures;
      ++run.by_component[comp.name];
      if (comp.silent) continue;  // the state is reloaded at restart: a corruption now does no harm
      double p = at;
      for (int k = 0; k < 3; ++k) {
        *sinks[k] += std::clamp(f.at - p, 0.0, phases[k]);
        p += phases[k];
      }
      ++run.interruptions;
      std::string action = "restart";
      wait = 0;
      if (comp.recovery == policy::Recovery::kReplace) {
        wait = spares.replace(rates.units_taken(comp, cfg.units), f.at, cfg.swap, action);
      }
      note(f.at, comp.name, f.instance, action + " (during recovery)");
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
    const auto& comp = rates.components[f.component];
    ++run.failures;
    ++run.by_component[comp.name];
    if (comp.silent) {
      corrupted = true;
      continue;
    }
    ++run.interruptions;
    run.recompute += std::min(pos, tau);
    pos = 0;
    corrupted = false;
    std::string action = "restart";
    double wait = 0;
    if (comp.recovery == policy::Recovery::kReplace) {
      wait = spares.replace(rates.units_taken(comp, cfg.units), t, cfg.swap, action);
    }
    note(t, comp.name, f.instance, action);
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
