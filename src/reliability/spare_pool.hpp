// The hot spare pool of a job: spares in hand, and swapped-out units coming back from repair.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zs::reliability {

class SparePool {
 public:
  /// `spares` units in hand; a swapped-out unit is back in the pool `repair` s after its failure.
  SparePool(uint64_t spares, double repair) : available_(spares), repair_(repair) {}

  /// Spares in hand at `now` (repaired units rejoin the pool first).
  uint64_t in_hand(double now) {
    while (head_ < repairs_.size() && repairs_[head_].first <= now) available_ += repairs_[head_++].second;
    return available_;
  }

  /// Time from `now` (s) until `need` failed units are replaced, and in `action` what happens meanwhile:
  /// spares in hand are swapped in (taking `swap` s; the failed units join the pool after repair); without
  /// enough, the job waits for the failed units' own repair.
  double replace(uint64_t need, double now, double swap, std::string& action) {
    if (in_hand(now) >= need) {
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
  double repair_;                                     ///< s
  std::vector<std::pair<double, uint64_t>> repairs_;  ///< (back at s, units), in time order
  size_t head_ = 0;
};

}  // namespace zs::reliability
