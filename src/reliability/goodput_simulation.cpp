// One seed of training under failures, event by event.
#include "reliability/goodput_simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "core/splitmix.hpp"

namespace zs::reliability {
namespace {

/// The random stragglers of one seed over the horizon, on their own stream (so that they do not shift
/// the failures).
void draw_stragglers(const GoodputConfig& cfg, uint64_t ranks, uint64_t seed, std::vector<Degradation>& out) {
  const auto& p = cfg.stragglers;
  if (p.rate_per_unit_hour <= 0 || ranks == 0) return;
  core::SplitMixStream stream(core::splitmix64(seed ^ 0x5354524147474c45ull));
  const double rate = p.rate_per_unit_hour * static_cast<double>(ranks) / 3600.0;  // 1/s, whole job
  for (double at = stream.exponential() / rate; at < cfg.horizon.value(); at += stream.exponential() / rate) {
    const uint64_t rank = stream.next() % ranks;
    out.push_back(
        {at, p.duration, Degradation::Kind::kUnit, rank, p.slowdown, "rank " + std::to_string(rank)});
  }
}

/// A degradation in words, for the list of degraded states.
std::string describe(const Degradation& d) {
  char text[160];
  switch (d.kind) {
    case Degradation::Kind::kUnit:
      std::snprintf(text, sizeof text, "%s computes %.3gx as long", d.name.c_str(), d.factor);
      break;
    case Degradation::Kind::kLink:
      std::snprintf(text, sizeof text, "%s at %.3g%% bandwidth", d.name.c_str(), 100 * d.factor);
      break;
    case Degradation::Kind::kOutage:
      std::snprintf(text, sizeof text, "%s out (%.3g%% of its link)", d.name.c_str(), 100 * d.factor);
      break;
    case Degradation::Kind::kPool:
      std::snprintf(text, sizeof text, "memory pool %s out (its ranks' data in the nearest pools with room)",
                    d.name.c_str());
      break;
  }
  return text;
}

/// A link whose outages add up to all of it.
bool is_down(double share) {
  return share >= 1 - 1e-9;
}

}  // namespace

GoodputSimulation::GoodputSimulation(const FailureRates& rates, const GoodputConfig& config, double interval,
                                     uint64_t seed, bool keep_timeline)
    : rates_(rates),
      cfg_(config),
      keep_timeline_(keep_timeline),
      job_(config.job != nullptr ? *config.job : own_job_.emplace(rates, config.units)),
      clock_(rates, job_, seed, config.scripted),
      spares_(config.spares, config.repair.value()),
      tau_(interval),
      delta_(config.checkpoint_cost.value()),
      cycle_(interval + config.checkpoint_cost.value()),
      horizon_(config.horizon.value()),
      peer_(config.peer.get()),
      restart_(config.restart.value()),
      degradations_(config.degradations),
      free_ports_(job_.spare_ports()) {
  if (config.re_placement != nullptr) replacer_.emplace(*config.re_placement, config.repair.value());
  if (peer_ != nullptr) {
    memory_lost_.assign(peer_->peer_of_rank.size(), 0);
    holder_of_.assign(peer_->peer_of_rank.size(), 0);
    for (uint64_t r = 0; r < peer_->peer_of_rank.size(); ++r) holder_of_[peer_->peer_of_rank[r]] = r;
  }
  draw_stragglers(config, job_.ranks(), seed, degradations_);
  std::stable_sort(degradations_.begin(), degradations_.end(),
                   [](const Degradation& a, const Degradation& b) { return a.at < b.at; });
}

GoodputRun GoodputSimulation::run() {
  update_rate();
  while (t_ < horizon_) {
    const double stop = std::min({clock_.next().at, next_change(), horizon_});
    if (stop - t_ >= cycle_ - pos_ && !finish_cycles(stop)) continue;  // rolled back
    advance(pos_, pos_ + (stop - t_));
    pos_ += stop - t_;
    t_ = stop;
    if (t_ >= horizon_) break;
    if (clock_.next().at > t_) {  // a degradation began or ended, or replicas rejoined
      update_rate();
      continue;
    }
    const Failure f = clock_.pop();
    const auto& component = count(f);
    if (component.silent) {
      corrupted_ = true;
      continue;
    }
    on_failure(f, component);
  }
  run_.useful += pending_ + draining_ + in_peers_;  // progress not yet checkpointed at the horizon is kept
  return std::move(run_);
}

bool GoodputSimulation::finish_cycles(double stop) {
  // Finish the current cycle, then skip whole cycles up to `stop`.
  advance(pos_, cycle_);
  t_ += cycle_ - pos_;
  pos_ = 0;
  if (corrupted_) {
    on_corruption_found();
    return false;
  }
  commit_checkpoint(t_);
  const double k = std::floor((stop - t_) / cycle_);
  if (k >= 1 && peer_ != nullptr) {  // drains end between snapshots: take the cycles one by one
    for (double i = 0; i < k; ++i) {
      advance(0, cycle_);
      t_ += cycle_;
      commit_checkpoint(t_);
    }
  } else if (k >= 1) {  // whole cycles at the same rate: all but the last are safe by the next snapshot
    run_.degraded += k * tau_ * (1 - rate_);
    run_.checkpoint += k * delta_;
    run_.checkpoints += static_cast<uint64_t>(k);
    if (cfg_.checkpoint_drain.value() <= 0) {
      run_.useful += k * tau_ * rate_;
    } else {
      run_.useful += draining_ + (k - 1) * tau_ * rate_;
      draining_ = tau_ * rate_;
      drain_end_ = t_ + k * cycle_ + cfg_.checkpoint_drain.value();
    }
    t_ += k * cycle_;
  }
  return true;
}

void GoodputSimulation::advance(double from, double to) {
  const double work = std::max(0.0, std::min(to, tau_) - from);
  pending_ += work * rate_;
  run_.degraded += work * (1 - rate_);
  run_.checkpoint += std::max(0.0, to - std::max(from, tau_));
}

void GoodputSimulation::commit_checkpoint(double at) {
  // Synchronous: its progress is safe; asynchronous: once its drain ends; to peer memory: safe unless a
  // rank and its peer are lost together, and persistent once drained.
  ++run_.checkpoints;
  if (peer_ != nullptr) {
    settle_persistent(at);
    in_peers_ += pending_;
    if (!persist_active_ && in_peers_ > 0) {
      persisting_ = in_peers_;
      persist_end_ = at + peer_->persistent_drain.value();
      persist_active_ = true;
    }
  } else if (cfg_.checkpoint_drain.value() <= 0) {
    run_.useful += pending_;
  } else {
    run_.useful += draining_;  // the previous drain ended (drain < interval)
    draining_ = pending_;
    drain_end_ = at + cfg_.checkpoint_drain.value();
  }
  pending_ = 0;
}

void GoodputSimulation::settle_persistent(double now) {
  // Drains that ended by `now` make their progress persistent; the next starts on the newest snapshot.
  while (persist_active_ && now >= persist_end_) {
    run_.useful += persisting_;
    in_peers_ -= persisting_;
    persist_active_ = false;
    if (in_peers_ > 0) {
      persisting_ = in_peers_;
      persist_end_ += peer_->persistent_drain.value();
      persist_active_ = true;
    }
  }
}

void GoodputSimulation::update_rate() {
  std::erase_if(active_, [&](const Degradation* d) { return d->at + d->duration <= t_; });
  std::erase_if(shrunk_, [&](const Shrink& s) { return s.rejoin <= t_; });
  for (; next_degradation_ < degradations_.size() && degradations_[next_degradation_].at <= t_;
       ++next_degradation_) {
    const auto& d = degradations_[next_degradation_];
    if (d.at + d.duration <= t_) continue;  // began and ended while the job was down
    active_.push_back(&d);
    note(d.at, d.kind == Degradation::Kind::kUnit ? "straggler" : "degraded link", d.id, d.name,
         "runs degraded for " + std::to_string(d.duration) + " s");
  }
  rate_ = 1;
  double slow = active_.empty() ? cfg_.iteration.value() : degraded_iteration();  // s, in the present state
  if (replacer_) slow = std::max(slow, replacer_->iteration(cfg_.iteration.value()));
  rate_ *= cfg_.iteration.value() / slow;
  if (!shrunk_.empty()) {
    std::vector<uint32_t> lost;
    for (const auto& s : shrunk_) lost.insert(lost.end(), s.replicas.begin(), s.replicas.end());
    std::sort(lost.begin(), lost.end());
    lost.erase(std::unique(lost.begin(), lost.end()), lost.end());
    rate_ *= double(cfg_.replicas - lost.size()) / cfg_.replicas;
  }
}

double GoodputSimulation::degraded_iteration() {
  DegradedIterations::Key key;
  for (const auto* d : active_) {
    if (d->kind == Degradation::Kind::kOutage || d->kind == Degradation::Kind::kPool) continue;
    const bool by_class = d->kind == Degradation::Kind::kUnit && !cfg_.class_of_rank.empty();
    key.emplace_back(int(d->kind), by_class ? cfg_.class_of_rank.at(d->id) : d->id, d->factor);
  }
  for (auto [link, share] : outage_shares(t_))  // links of one class are taken to cost the same
    key.emplace_back(int(Degradation::Kind::kOutage), job_.link_class(link), std::min(1.0, share));
  for (auto pool : pools_down(t_)) key.emplace_back(int(Degradation::Kind::kPool), pool, 1.0);
  std::sort(key.begin(), key.end());
  if (cfg_.degraded == nullptr)
    throw std::logic_error("a goodput run with degradations needs GoodputConfig::degraded");
  const auto& state = cfg_.degraded->state(key, active_, [this] {
    std::string description;
    for (size_t k = 0; k < active_.size(); ++k) {
      const auto* d = active_[k];
      auto same_pool = [d](const Degradation* e) {  // a pool drawn again while out is out once
        return e->kind == Degradation::Kind::kPool && d->kind == e->kind && e->id == d->id;
      };
      if (std::any_of(active_.begin(), active_.begin() + long(k), same_pool)) continue;
      description += (description.empty() ? "" : "; ") + describe(*d);
    }
    return description;
  });
  // A degraded machine is never taken to be faster than the healthy one: a shorter simulated iteration
  // (routes hashed differently around a failed link) counts as healthy.
  return std::max(cfg_.iteration.value(), state.simulated);
}

double GoodputSimulation::next_change() const {
  double at = std::numeric_limits<double>::infinity();
  if (next_degradation_ < degradations_.size()) at = degradations_[next_degradation_].at;
  for (const auto* d : active_) at = std::min(at, d->at + d->duration);
  for (const auto& s : shrunk_) at = std::min(at, s.rejoin);
  return at;
}

std::map<topology::LinkId, double> GoodputSimulation::outage_shares(double at) const {
  // `active_` may still hold outages repaired while the job was down.
  std::map<topology::LinkId, double> share;
  for (const auto* d : active_)
    if (d->kind == Degradation::Kind::kOutage && d->at + d->duration > at)
      share[topology::LinkId(d->id)] += d->factor;
  return share;
}

std::vector<topology::NodeId> GoodputSimulation::pools_down(double at) const {
  std::vector<topology::NodeId> down;
  for (const auto* d : active_)
    if (d->kind == Degradation::Kind::kPool && d->at + d->duration > at)
      down.push_back(topology::NodeId(d->id));
  std::sort(down.begin(), down.end());
  down.erase(std::unique(down.begin(), down.end()), down.end());
  return down;
}

void GoodputSimulation::on_failure(const Failure& f, const ComponentRate& component) {
  lose_progress();
  corrupted_ = false;
  const double wait = interrupt(f, component, t_, f.scripted ? " (scripted)" : "");
  t_ = recover(t_, cfg_.detection.value(), wait);
  update_rate();
}

void GoodputSimulation::on_corruption_found() {
  // Validation of the checkpoint just taken finds the corruption: roll back one cycle.
  corrupted_ = false;
  ++run_.interruptions;
  note(t_, "sdc", 0, "", "rollback (corruption found at checkpoint validation)");
  lose_progress();
  t_ = recover(t_, 0, 0);
  update_rate();
}

const ComponentRate& GoodputSimulation::count(const Failure& f) {
  const auto& component = rates_.components[f.component];
  ++run_.failures;
  ++run_.by_component[component.name];
  return component;
}

double GoodputSimulation::interrupt(const Failure& f, const ComponentRate& component, double at,
                                    const char* when) {
  ++run_.interruptions;
  std::string action = "restart";
  double wait = 0;
  if (component.fabric()) {
    wait = fabric_failure(f, at, action);
  } else if (component.memory_pool()) {
    wait = pool_failure(f, at, action);
  } else if (component.recovery == Recovery::kReplace) {
    // The ranks it stops: with re-placement those running on its units now (ranks move), else its own.
    const auto down = replacer_ ? job_.units_down(f.component, f.instance) : std::vector<topology::NodeId>{};
    const auto own = job_.ranks_taken(f.component, f.instance);
    wait = replace_ranks(replacer_ ? replacer_->failed_ranks(own, down) : own, down, at, action);
  }
  note(at, component.name, f.instance, job_.instance_name(f.component, f.instance), action + when);
  return wait;
}

double GoodputSimulation::fabric_failure(const Failure& f, double at, std::string& action) {
  // A port whose switch has a free port cabled to the same node is re-patched (the switch's
  // reconfiguration time). Otherwise the link loses the part's share until the repair; a link that goes
  // down entirely and cuts ranks off the job has them replaced instead.
  if (rates_.components[f.component].per == FailureScope::kOpticalPort) {
    const auto& port = job_.optical_port(f.component, f.instance);
    for (; next_port_return_ < port_returns_.size() && port_returns_[next_port_return_].first <= at;
         ++next_port_return_)
      ++free_ports_[port_returns_[next_port_return_].second];
    if (free_ports_[port.spare_group] > 0) {
      --free_ports_[port.spare_group];
      port_returns_.emplace_back(at + cfg_.repair.value(), port.spare_group);
      action =
          "re-patch to a free port (optical reconfiguration " + std::to_string(port.reconfiguration) + " s)";
      return port.reconfiguration;
    }
  }
  const topology::LinkId link = job_.fabric_link(f.component, f.instance);
  const double share = job_.fabric_share(f.component, f.instance);
  auto shares = outage_shares(at);
  const double lost = shares[link] + share;
  if (is_down(lost)) {
    std::vector<topology::LinkId> down{link};
    for (auto [l, x] : shares)
      if (l != link && is_down(x)) down.push_back(l);
    const auto cut = job_.cut_off(down, replacer_ ? replacer_->unit_of_rank() : job_.unit_of_rank());
    if (!cut.ranks.empty()) {
      const double wait = replace_ranks(cut.ranks, cut.units, at, action);
      action = "cuts off " + std::to_string(cut.ranks.size()) + " rank(s): " + action;
      return wait;
    }
  }
  outages_.push_back({at, cfg_.repair.value(), Degradation::Kind::kOutage, link, share,
                      job_.instance_name(f.component, f.instance)});
  active_.push_back(&outages_.back());
  char text[96];
  std::snprintf(text, sizeof text, "restart with %.3g%% of the link until repaired", 100 * (1 - lost));
  action = is_down(lost) ? "restart without the link until repaired" : text;
  return 0.0;
}

double GoodputSimulation::pool_failure(const Failure& f, double at, std::string& action) {
  // The job restarts (its checkpoint holds what the pool kept) with the pool's ranks keeping their data
  // in the nearest healthy pools with room until the repair; with no room, it waits for the repair.
  auto down = pools_down(at);
  down.push_back(job_.memory_pool(f.instance));
  if (!job_.pools_without(down)) {
    action = "wait for repair (no healthy memory pool has room for its ranks' data)";
    return cfg_.repair.value();
  }
  outages_.push_back({at, cfg_.repair.value(), Degradation::Kind::kPool, job_.memory_pool(f.instance), 1.0,
                      job_.instance_name(f.component, f.instance)});
  active_.push_back(&outages_.back());
  action = "restart with its ranks' data in the nearest pools with room until repaired";
  return 0.0;
}

double GoodputSimulation::replace_ranks(const std::vector<uint64_t>& failed,
                                        const std::vector<topology::NodeId>& down, double at,
                                        std::string& action) {
  // The recovery policy's choice for the failed ranks (`down`: units kept out of use until repaired).
  // Returns the wait. A domain no rank runs on any more (its ranks were re-placed) stops nobody: the
  // spares' own bookkeeping restarts the job where it is, and the policy is not asked.
  const std::string restore = lose_memory(failed, at);
  const double wait =
      failed.empty() ? use_spares(failed, down, at, action) : choose_recovery(failed, down, at, action);
  action += restore;
  return wait;
}

double GoodputSimulation::choose_recovery(const std::vector<uint64_t>& failed,
                                          const std::vector<topology::NodeId>& down, double at,
                                          std::string& action) {
  policy::RankLoss loss;
  loss.ranks = failed.size();
  loss.spares_in_hand = replacer_ ? replacer_->idle_units(at) : spares_.in_hand(at);
  Shrink shrink = shrink_for(failed, at);
  loss.replicas_to_drop = shrink.replicas.size();
  loss.replicas_running = replicas_running();
  loss.swap = cfg_.swap.value();
  loss.repair = cfg_.repair.value();
  switch (cfg_.recovery->choose(loss)) {
    case policy::RecoveryAction::kReplace:
      return use_spares(failed, down, at, action);
    case policy::RecoveryAction::kShrink:
      if (shrink.replicas.empty())
        throw std::logic_error("a recovery policy chose to shrink where no replica can be dropped");
      action = "shrink by " + std::to_string(shrink.replicas.size()) + " replica(s) until repaired";
      shrunk_.push_back(std::move(shrink));
      return 0;
    case policy::RecoveryAction::kWaitForRepair:
      break;
  }
  if (replacer_) return replacer_->wait_for_repair(down, at, action);
  action = "wait for repair";
  return cfg_.repair.value();
}

double GoodputSimulation::use_spares(const std::vector<uint64_t>& failed,
                                     const std::vector<topology::NodeId>& down, double at,
                                     std::string& action) {
  // Spares swapped in or ranks re-placed; too few: the wait for the repair.
  return replacer_ ? replacer_->replace(failed, down, at, cfg_.swap.value(), action)
                   : spares_.replace(failed.size(), at, cfg_.swap.value(), action);
}

GoodputSimulation::Shrink GoodputSimulation::shrink_for(const std::vector<uint64_t>& failed,
                                                        double at) const {
  // The failed ranks' replicas, dropped until the repair; none when the job keeps no replicas or none
  // would be left to run.
  Shrink s{at + cfg_.repair.value(), {}};
  if (cfg_.replica_of_rank.empty()) return s;
  for (uint64_t r : failed) s.replicas.push_back(cfg_.replica_of_rank.at(r));
  std::sort(s.replicas.begin(), s.replicas.end());
  s.replicas.erase(std::unique(s.replicas.begin(), s.replicas.end()), s.replicas.end());
  std::vector<uint32_t> all = s.replicas;
  for (const auto& o : shrunk_) all.insert(all.end(), o.replicas.begin(), o.replicas.end());
  std::sort(all.begin(), all.end());
  if (uint64_t(std::unique(all.begin(), all.end()) - all.begin()) >= cfg_.replicas) s.replicas.clear();
  return s;
}

uint64_t GoodputSimulation::replicas_running() const {
  if (cfg_.replica_of_rank.empty()) return 0;
  std::vector<uint32_t> lost;
  for (const auto& s : shrunk_) lost.insert(lost.end(), s.replicas.begin(), s.replicas.end());
  std::sort(lost.begin(), lost.end());
  return cfg_.replicas - uint64_t(std::unique(lost.begin(), lost.end()) - lost.begin());
}

double GoodputSimulation::recover(double start, double detection, double wait) {
  // Downtime from `start`: detection, the wait (swap or repair), the restart; a failure in the meantime
  // starts it again. Returns when the job runs again (or the horizon).
  for (double at = start;;) {
    const double phases[3] = {detection, wait, restart_};
    const double end = at + phases[0] + phases[1] + phases[2];
    if (clock_.next().at >= end || clock_.next().at >= horizon_) {
      charge_downtime(at, std::min(end, horizon_), phases);
      return std::min(end, horizon_);
    }
    const Failure f = clock_.pop();
    const auto& component = count(f);
    if (component.silent) continue;  // the state is reloaded at restart: a corruption now does no harm
    charge_downtime(at, f.at, phases);
    wait = interrupt(f, component, f.at, " (during recovery)");
    at = f.at;
    detection = cfg_.detection.value();
  }
}

void GoodputSimulation::charge_downtime(double from, double until, const double (&phases)[3]) {
  // The phases (detection, waiting, restart) that begin at `from`, for the time up to `until`.
  double* sinks[3] = {&run_.detection, &run_.waiting, &run_.restart};
  for (int k = 0; k < 3; ++k) {
    *sinks[k] += std::clamp(until - from, 0.0, phases[k]);
    from += phases[k];
  }
}

void GoodputSimulation::lose_progress() {
  // A failure (or a found corruption) at t: progress since the last safe checkpoint is lost.
  begin_downtime();
  if (peer_ != nullptr) settle_persistent(t_);  // the snapshots survive unless lose_memory says otherwise
  if (draining_ > 0 && t_ < drain_end_) {
    pending_ += draining_;  // the checkpoint being drained is incomplete
  } else {
    run_.useful += draining_;
  }
  draining_ = 0;
  run_.recompute += pending_;
  pending_ = 0;
  pos_ = 0;
}

void GoodputSimulation::begin_downtime() {
  for (uint64_t r : lost_list_) memory_lost_[r] = 0;
  lost_list_.clear();
  restoring_from_persistent_ = false;
  restart_ = cfg_.restart.value();
}

std::string GoodputSimulation::lose_memory(const std::vector<uint64_t>& ranks, double at) {
  // Peer checkpoints: when a rank's snapshot and its peer's copy are both gone, the job restores from the
  // persistent tier: the progress only the snapshots held is lost too, and loading takes longer.
  if (peer_ == nullptr || restoring_from_persistent_) return "";
  for (uint64_t r : ranks)
    if (!memory_lost_[r]) memory_lost_[r] = 1, lost_list_.push_back(r);
  for (uint64_t r : ranks) {
    const uint64_t other = memory_lost_[peer_->peer_of_rank[r]] ? peer_->peer_of_rank[r]
                           : memory_lost_[holder_of_[r]]        ? holder_of_[r]
                                                                : r;
    if (other == r) continue;
    restoring_from_persistent_ = true;
    ++run_.persistent_restores;
    settle_persistent(at);
    run_.recompute += in_peers_;
    in_peers_ = persisting_ = 0;
    persist_active_ = false;
    restart_ = cfg_.restart.value() + peer_->persistent_load.value();
    return "; restore from the persistent tier (rank " + std::to_string(std::min(r, other)) +
           " and its peer rank " + std::to_string(std::max(r, other)) + " lost together)";
  }
  return "";
}

void GoodputSimulation::note(double at, const std::string& component, uint64_t instance,
                             const std::string& name, const std::string& action) {
  if (keep_timeline_) run_.timeline.push_back({at, component, instance, name, action});
}

}  // namespace zs::reliability
