// Iteration times of a job with degradations in force, each machine state simulated once for all seeds.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "reliability/degradation.hpp"

namespace zs::reliability {

/// The iteration time of each degraded machine state a goodput run meets. The states are simulated by
/// `simulate` (the engine re-run with units slowed, links derated or out, pools down) the first time a
/// seed meets them, and shared by the seeds after that; the caller owns this object, the goodput
/// configuration points to it.
class DegradedIterations {
 public:
  /// The iteration with the given degradations in force, s.
  using Simulate = std::function<double(const std::vector<const Degradation*>& active)>;
  /// A machine state with degradations in force: the engine's iteration for it, and the degradations
  /// that first made it, in words.
  struct State {
    double simulated = 0;  ///< s, as simulated (the job runs at no less than the healthy iteration)
    std::string description;
  };
  /// Per degradation (kind, id, factor): a straggler's rank class (its rank without classes), a degraded
  /// link's id, per link with outages its link class and share out, and per failed memory pool its node
  /// (factor 1); sorted.
  using Key = std::vector<std::tuple<int, uint64_t, double>>;

  explicit DegradedIterations(Simulate simulate) : simulate_(std::move(simulate)) {}

  /// The state of `key`; met for the first time, it is simulated with `active` and described by
  /// `describe` (called once, then).
  const State& state(const Key& key, const std::vector<const Degradation*>& active,
                     const std::function<std::string()>& describe);
  /// Every state simulated so far, by key.
  const std::map<Key, State>& states() const { return states_; }

 private:
  Simulate simulate_;
  std::map<Key, State> states_;
};

}  // namespace zs::reliability
