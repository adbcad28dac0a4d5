// Collapsed fidelity: communications in flight at the same time share the link directions they load.
#pragma once

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace zs::engine {

/// A fluid model of collapsed fidelity's communication charges (a collective, a point-to-point transfer
/// or a memory move of a representative and its copies, costed alone by CollapsedCosts). A charge that
/// alone takes W seconds and moves b_d bytes over link direction d loads d at the rate b_d / W while it
/// progresses at full speed. Where the charges in flight together ask more of a direction than its
/// bandwidth, their speeds are shared max-min fairly (progressive filling of a common speed, at most 1):
/// a charge that alone takes W and meets another equal one on its busiest direction takes 2 W, and both
/// go back to full speed when one ends. Charges that overlap nowhere keep the times they have alone.
/// Rates are averages over a charge's steps, so bursts within a charge are not seen; directions a charge
/// loads below kNegligibleUse of their bandwidth are left out (they cannot make a direction overloaded
/// by themselves).
class ConcurrentCharges {
 public:
  using Id = uint32_t;
  /// A charge's use of a direction below this fraction of its bandwidth is not tracked.
  static constexpr double kNegligibleUse = 0.01;

  /// `direction_bandwidth`: per link direction (2 l: a to b, 2 l + 1: b to a), B/s.
  explicit ConcurrentCharges(std::vector<double> direction_bandwidth);

  /// Starts at `now` (s) a charge that alone takes `seconds` (> 0) and moves `link_bytes` (B per link
  /// direction, each direction at most once). Charges whose finish time this changes, the new one
  /// included, are listed in changed().
  Id start(double now, double seconds, const std::vector<std::pair<uint32_t, double>>& link_bytes);
  /// Ends charge `id` at `now`, its finish time; the charges this speeds up are listed in changed().
  void end(Id id, double now);

  /// The charges whose finish time moved in the last start() or end(), each once, in an order fixed by the
  /// calls made (deterministic).
  const std::vector<Id>& changed() const { return changed_; }
  /// When charge `id` finishes at its current speed, s.
  double finish(Id id) const { return charges_[id].finish; }
  /// Counts the finish times charge `id` has had; a timer set for an older one is stale.
  uint32_t version(Id id) const { return charges_[id].version; }
  /// Whether charge `id` is in flight.
  bool active(Id id) const { return id < charges_.size() && charges_[id].active; }
  /// Charges that ever ran below full speed (for reports).
  uint64_t slowed_charges() const { return slowed_; }

 private:
  struct Charge {
    std::vector<std::pair<uint32_t, double>> rate;  ///< per direction, B/s at full speed
    double remaining = 0;                           ///< s of progress at full speed still to make
    double speed = 1;                               ///< progress per second, in (0, 1]
    double updated = 0;                             ///< when remaining was last brought up to date, s
    double finish = 0;                              ///< s
    uint32_t version = 0;
    bool active = false;
    bool was_slowed = false;
  };
  /// Recomputes the speeds of the charges that touch an overloaded direction or ran slowed, at `now`.
  void reshare(double now);
  void add_demand(uint32_t d, double rate);
  void remove_demand(uint32_t d, double rate);

  std::vector<double> bandwidth_;  ///< per direction, B/s
  std::vector<double> demand_;     ///< per direction, B/s at full speed of the charges on it
  std::vector<std::vector<std::pair<Id, double>>> users_;  ///< per direction, the charges on it, B/s
  std::set<uint32_t> overloaded_;    ///< directions whose demand exceeds their bandwidth
  std::vector<char> is_overloaded_;  ///< per direction: in overloaded_
  std::set<Id> slowed_now_;          ///< charges running below full speed
  std::vector<Charge> charges_;
  std::vector<Id> free_;
  std::vector<Id> changed_;
  /// Per charge, scratch for reshare(): the speed it gets; kUnset (-1) before reshare() looks at it,
  /// kFilling (-2) while it is on an overloaded direction and its speed is still rising.
  std::vector<double> level_;
  static constexpr double kUnset = -1, kFilling = -2;
  uint64_t slowed_ = 0;
};

}  // namespace zs::engine
