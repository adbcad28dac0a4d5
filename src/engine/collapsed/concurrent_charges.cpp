// Max-min sharing of link directions between collapsed fidelity's communication charges in flight.
#include "engine/collapsed/concurrent_charges.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace zs::engine {
namespace {

/// Relative tolerance on rates and speeds: below it two values are the same.
constexpr double kTolerance = 1e-9;

}  // namespace

ConcurrentCharges::ConcurrentCharges(std::vector<double> direction_bandwidth)
    : bandwidth_(std::move(direction_bandwidth)),
      demand_(bandwidth_.size(), 0.0),
      users_(bandwidth_.size()),
      is_overloaded_(bandwidth_.size(), 0) {}

void ConcurrentCharges::add_demand(uint32_t d, double rate) {
  demand_[d] += rate;
  if (!is_overloaded_[d] && demand_[d] > bandwidth_[d] * (1 + kTolerance)) {
    is_overloaded_[d] = 1;
    overloaded_.insert(d);
  }
}

void ConcurrentCharges::remove_demand(uint32_t d, double rate) {
  demand_[d] = users_[d].empty() ? 0.0 : demand_[d] - rate;
  if (is_overloaded_[d] && demand_[d] <= bandwidth_[d] * (1 + kTolerance)) {
    is_overloaded_[d] = 0;
    overloaded_.erase(d);
  }
}

ConcurrentCharges::Id ConcurrentCharges::start(double now, double seconds,
                                               const std::vector<std::pair<uint32_t, double>>& link_bytes) {
  if (!(seconds > 0)) throw std::invalid_argument("a shared charge must take a positive time");
  Id id;
  if (!free_.empty()) {
    id = free_.back();
    free_.pop_back();
  } else {
    id = static_cast<Id>(charges_.size());
    charges_.emplace_back();
    level_.push_back(kUnset);
  }
  Charge& c = charges_[id];
  c.rate.clear();
  c.remaining = seconds;
  c.speed = 1;
  c.updated = now;
  c.finish = now + seconds;
  ++c.version;
  c.active = true;
  c.was_slowed = false;
  changed_.clear();
  bool contended = false;
  for (const auto& [d, bytes] : link_bytes) {
    const double rate = bytes / seconds;
    if (rate < kNegligibleUse * bandwidth_[d]) continue;
    c.rate.emplace_back(d, rate);
    users_[d].emplace_back(id, rate);
    add_demand(d, rate);
    contended = contended || is_overloaded_[d];
  }
  if (contended) reshare(now);
  if (std::find(changed_.begin(), changed_.end(), id) == changed_.end()) changed_.push_back(id);
  return id;
}

void ConcurrentCharges::end(Id id, double now) {
  Charge& c = charges_.at(id);
  if (!c.active) throw std::logic_error("ending a shared charge that is not in flight");
  c.active = false;
  slowed_now_.erase(id);
  changed_.clear();
  bool contended = false;
  for (const auto& [d, rate] : c.rate) {
    contended = contended || is_overloaded_[d];
    auto& users = users_[d];
    users.erase(std::find_if(users.begin(), users.end(), [id = id](const auto& u) { return u.first == id; }));
    remove_demand(d, rate);
  }
  free_.push_back(id);
  if (contended) reshare(now);
}

void ConcurrentCharges::reshare(double now) {
  // The charges whose speed may change: those on an overloaded direction and those running slowed.
  // (Each once, in the order met: the speeds do not depend on it.)
  std::vector<Id> affected(slowed_now_.begin(), slowed_now_.end());
  for (Id i : affected) level_[i] = kFilling;
  for (uint32_t d : overloaded_)
    for (const auto& u : users_[d])
      if (level_[u.first] != kFilling) {
        level_[u.first] = kFilling;
        affected.push_back(u.first);
      }
  // Progressive filling: raise the common speed of the unset charges until an overloaded direction is
  // full; the charges on it keep that speed; repeat. Charges on no overloaded direction run at 1.
  size_t unset = 0;
  for (Id i : affected) level_[i] = kUnset;
  for (uint32_t d : overloaded_)
    for (const auto& u : users_[d])
      if (level_[u.first] == kUnset) {
        level_[u.first] = kFilling;
        ++unset;
      }
  for (Id i : affected)
    if (level_[i] == kUnset) level_[i] = 1.0;
  std::vector<uint32_t> tightest;
  while (unset > 0) {
    double lowest = 1.0;
    tightest.clear();
    for (uint32_t d : overloaded_) {
      double left = bandwidth_[d], asked = 0;
      for (const auto& [i, rate] : users_[d]) {
        if (level_[i] == kFilling)
          asked += rate;
        else
          left -= level_[i] * rate;
      }
      if (asked <= 0) continue;
      const double level = std::max(left, 0.0) / asked;
      if (level < lowest * (1 - kTolerance)) {
        lowest = level;
        tightest.assign(1, d);
      } else if (level <= lowest * (1 + kTolerance) && lowest < 1.0) {
        tightest.push_back(d);
      }
    }
    if (tightest.empty()) {  // no direction binds below full speed
      for (Id i : affected)
        if (level_[i] == kFilling) level_[i] = 1.0;
      break;
    }
    // A charge never stops altogether: a direction its faster neighbours filled still lets it creep.
    const double level = std::max(lowest, kTolerance);
    for (uint32_t d : tightest)
      for (const auto& u : users_[d])
        if (level_[u.first] == kFilling) {
          level_[u.first] = level;
          --unset;
        }
  }
  for (Id i : affected) {
    Charge& c = charges_[i];
    const double speed = std::min(level_[i], 1.0);
    if (speed < 1.0) {
      slowed_now_.insert(i);
      if (!c.was_slowed) ++slowed_;
      c.was_slowed = true;
    } else {
      slowed_now_.erase(i);
    }
    if (std::abs(speed - c.speed) <= kTolerance * c.speed) continue;
    c.remaining = std::max(0.0, c.remaining - (now - c.updated) * c.speed);
    c.updated = now;
    c.speed = speed;
    c.finish = now + c.remaining / speed;
    ++c.version;
    changed_.push_back(i);
  }
}

}  // namespace zs::engine
