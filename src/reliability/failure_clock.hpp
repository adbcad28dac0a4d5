// The failure processes of every component instance of a job, in time order.
#pragma once

#include <cstdint>
#include <queue>
#include <vector>

#include "core/splitmix.hpp"
#include "reliability/failure_rates.hpp"
#include "reliability/job_components.hpp"

namespace zs::reliability {

/// One failure: when (s), which component type (index in the rate table) and which of its instances.
struct Failure {
  double at = 0;
  uint32_t component = 0;
  uint64_t instance = 0;
  bool scripted = false;  ///< a scenario's scripted event (it starts no process)
  /// Time order; ties by component then instance, so the order is deterministic.
  bool operator>(const Failure& o) const {
    if (at != o.at) return at > o.at;
    if (component != o.component) return component > o.component;
    return instance > o.instance;
  }
};

/// Renewal processes of failures, seeded and platform-independent (SplitMix64). Exponential components are
/// one merged process (rate = instances x rate; the instance drawn uniformly); Weibull ones are one process
/// per instance (a replaced or restarted instance starts a new lifetime of the same mean).
class FailureClock {
 public:
  /// `scripted` failures happen at their times in addition to the random ones.
  FailureClock(const FailureRates& rates, const JobComponents& job, uint64_t seed,
               const std::vector<Failure>& scripted = {});
  /// The next failure, not removed.
  const Failure& next() const { return queue_.top(); }
  /// Removes the next failure and schedules the next one of its process.
  Failure pop();

 private:
  /// A lifetime of one of `n` merged instances of component c, s.
  double lifetime(uint32_t c, uint64_t n);

  const FailureRates& rates_;
  const JobComponents& job_;
  core::SplitMixStream stream_;
  std::priority_queue<Failure, std::vector<Failure>, std::greater<>> queue_;
};

}  // namespace zs::reliability
