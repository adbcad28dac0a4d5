// Failure processes: merged exponential ones and per-instance Weibull ones.
#include "reliability/failure_clock.hpp"

#include <cmath>
#include <limits>

namespace zs::reliability {

FailureClock::FailureClock(const FailureRates& rates, const JobComponents& job, uint64_t seed,
                           const std::vector<Failure>& scripted)
    : rates_(rates), job_(job), stream_(seed) {
  for (const auto& f : scripted) queue_.push(f);
  // A sentinel that never comes, so that next() always has an answer.
  queue_.push({std::numeric_limits<double>::infinity(), ~0u, 0, true});
  for (uint32_t c = 0; c < rates.components.size(); ++c) {
    const auto& comp = rates.components[c];
    const uint64_t n = job.instances(c);
    if (n == 0) continue;
    if (comp.weibull_shape == 1.0) {
      queue_.push({lifetime(c, n), c, 0});
    } else {
      for (uint64_t i = 0; i < n; ++i) queue_.push({lifetime(c, 1), c, i});
    }
  }
}

Failure FailureClock::pop() {
  Failure f = queue_.top();
  queue_.pop();
  if (f.scripted) return f;
  const auto& comp = rates_.components[f.component];
  if (comp.weibull_shape == 1.0) {
    const uint64_t n = job_.instances(f.component);
    f.instance = stream_.next() % n;
    queue_.push({f.at + lifetime(f.component, n), f.component, 0});
  } else {
    queue_.push({f.at + lifetime(f.component, 1), f.component, f.instance});
  }
  return f;
}

double FailureClock::lifetime(uint32_t c, uint64_t n) {
  const auto& comp = rates_.components[c];
  const double mean = 3600.0 / (comp.rate_per_hour * static_cast<double>(n));  // rate is per hour
  if (comp.weibull_shape == 1.0) return mean * stream_.exponential();
  const double scale = mean / std::tgamma(1 + 1 / comp.weibull_shape);
  return scale * std::pow(stream_.exponential(), 1 / comp.weibull_shape);
}

}  // namespace zs::reliability
