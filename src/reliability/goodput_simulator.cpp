// Monte Carlo of training under failures.
#include "reliability/goodput_simulator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <limits>
#include <optional>
#include <tuple>

#include "core/splitmix.hpp"
#include "core/units.hpp"
#include "reliability/failure_clock.hpp"
#include "reliability/re_placement.hpp"
#include "reliability/spare_pool.hpp"

namespace zs::reliability {

namespace {

/// The random stragglers of one seed over the horizon, on their own stream (so that they do not shift
/// the failures).
void draw_stragglers(const GoodputConfig& cfg, uint64_t ranks, uint64_t seed, std::vector<Degradation>& out) {
  const auto& p = cfg.stragglers;
  if (p.rate_per_unit_hour <= 0 || ranks == 0) return;
  core::SplitMixStream stream(core::splitmix64(seed ^ 0x5354524147474c45ull));
  const double rate = p.rate_per_unit_hour * static_cast<double>(ranks) / 3600.0;  // 1/s, whole job
  for (double at = stream.exponential() / rate; at < cfg.horizon; at += stream.exponential() / rate) {
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

}  // namespace

GoodputRun simulate_goodput_once(const FailureRates& rates, const GoodputConfig& cfg, double interval,
                                 uint64_t seed, bool keep_timeline) {
  GoodputRun run;
  std::optional<JobComponents> own;
  const JobComponents& job = cfg.job != nullptr ? *cfg.job : own.emplace(rates, cfg.units);
  FailureClock clock(rates, job, seed, cfg.scripted);
  SparePool spares(cfg.spares, cfg.repair);
  std::optional<RePlacer> replacer;
  if (cfg.re_placement != nullptr) replacer.emplace(*cfg.re_placement, cfg.repair);
  const double tau = interval, delta = cfg.checkpoint_cost, cycle = tau + delta, H = cfg.horizon;
  double t = 0, pos = 0;  // wall time; position in the current work + checkpoint cycle
  double pending = 0;     // progress since the last snapshot, s of healthy training
  double draining = 0;    // asynchronous: progress of the last snapshot, safe once its drain ends
  double drain_end = 0;
  bool corrupted = false;
  // Peer checkpoints: snapshotted progress not yet in the persistent tier, and the drain to it.
  const PeerCheckpoints* peer = cfg.peer;
  double in_peers = 0;     // progress safe in the snapshots only
  double persisting = 0;   // the part of it the drain in progress covers
  double persist_end = 0;  // when that drain ends
  bool persist_active = false;
  double restart = cfg.restart;     // this downtime's restart: longer when loading from the persistent tier
  std::vector<char> memory_lost;    // this downtime: ranks whose memory (own snapshot, peers' copies) is gone
  std::vector<uint64_t> lost_list;  // the marked ranks, to clear
  std::vector<uint64_t> holder_of;  // by rank: whose snapshot copy it holds (inverse of peer_of_rank)
  bool restoring_from_persistent = false;  // this downtime restores from the persistent tier
  if (peer != nullptr) {
    memory_lost.assign(peer->peer_of_rank.size(), 0);
    holder_of.assign(peer->peer_of_rank.size(), 0);
    for (uint64_t r = 0; r < peer->peer_of_rank.size(); ++r) holder_of[peer->peer_of_rank[r]] = r;
  }

  auto note = [&](double at, const std::string& component, uint64_t instance, const std::string& name,
                  const std::string& action) {
    if (keep_timeline) run.timeline.push_back({at, component, instance, name, action});
  };

  // Degradations (scripted and drawn) and elastic shrinks change the rate of progress: progress per s of
  // work is `rate` (1 when healthy and whole).
  std::vector<Degradation> degradations = cfg.degradations;
  draw_stragglers(cfg, job.ranks(), seed, degradations);
  std::stable_sort(degradations.begin(), degradations.end(),
                   [](const Degradation& a, const Degradation& b) { return a.at < b.at; });
  size_t next_degradation = 0;
  std::vector<const Degradation*> active;
  struct Shrink {
    double rejoin = 0;
    std::vector<uint32_t> replicas;
  };
  std::vector<Shrink> shrunk;
  // Fabric parts and memory pools out of service from their failure until repaired (referenced by
  // `active`), and the free
  // optical switch ports a failed port's circuit can be re-patched to.
  std::deque<Degradation> outages;
  std::vector<uint32_t> free_ports = job.spare_ports();
  std::vector<std::pair<double, uint32_t>> port_returns;  // (back at s, spare group), in time order
  size_t next_port_return = 0;
  // Per link, the share of it the outages in force at `at` take out (`active` may still hold outages
  // repaired while the job was down); a link is down when its share reaches 1.
  auto outage_shares = [&](double at) {
    std::map<topology::LinkId, double> share;
    for (const auto* d : active)
      if (d->kind == Degradation::Kind::kOutage && d->at + d->duration > at)
        share[topology::LinkId(d->id)] += d->factor;
    return share;
  };
  auto is_down = [](double share) { return share >= 1 - 1e-9; };
  // The memory pools out of service at `at`, ascending.
  auto pools_down = [&](double at) {
    std::vector<topology::NodeId> down;
    for (const auto* d : active)
      if (d->kind == Degradation::Kind::kPool && d->at + d->duration > at)
        down.push_back(topology::NodeId(d->id));
    std::sort(down.begin(), down.end());
    down.erase(std::unique(down.begin(), down.end()), down.end());
    return down;
  };
  double rate = 1;
  auto update_rate = [&] {
    std::erase_if(active, [&](const Degradation* d) { return d->at + d->duration <= t; });
    std::erase_if(shrunk, [&](const Shrink& s) { return s.rejoin <= t; });
    for (; next_degradation < degradations.size() && degradations[next_degradation].at <= t;
         ++next_degradation) {
      const auto& d = degradations[next_degradation];
      if (d.at + d.duration <= t) continue;  // began and ended while the job was down
      active.push_back(&d);
      note(d.at, d.kind == Degradation::Kind::kUnit ? "straggler" : "degraded link", d.id, d.name,
           "runs degraded for " + std::to_string(d.duration) + " s");
    }
    rate = 1;
    double slow = cfg.iteration;  // s, the iteration in the machine's present state
    if (!active.empty()) {
      std::vector<std::tuple<int, uint64_t, double>> key;
      for (const auto* d : active) {
        if (d->kind == Degradation::Kind::kOutage || d->kind == Degradation::Kind::kPool) continue;
        const bool by_class = d->kind == Degradation::Kind::kUnit && !cfg.class_of_rank.empty();
        key.emplace_back(int(d->kind), by_class ? cfg.class_of_rank.at(d->id) : d->id, d->factor);
      }
      for (auto [link, share] : outage_shares(t))  // links of one class are taken to cost the same
        key.emplace_back(int(Degradation::Kind::kOutage), job.link_class(link), std::min(1.0, share));
      for (auto pool : pools_down(t)) key.emplace_back(int(Degradation::Kind::kPool), pool, 1.0);
      std::sort(key.begin(), key.end());
      auto [it, fresh] = cfg.degraded_states.try_emplace(key);
      if (fresh) {
        it->second.simulated = cfg.degraded_iteration(active);
        for (size_t k = 0; k < active.size(); ++k) {
          const auto* d = active[k];
          auto same_pool = [d](const Degradation* e) {  // a pool drawn again while out is out once
            return e->kind == Degradation::Kind::kPool && d->kind == e->kind && e->id == d->id;
          };
          if (std::any_of(active.begin(), active.begin() + long(k), same_pool)) continue;
          it->second.description += (it->second.description.empty() ? "" : "; ") + describe(*d);
        }
      }
      // A degraded machine is never taken to be faster than the healthy one: a shorter simulated
      // iteration (routes hashed differently around a failed link) counts as healthy.
      slow = std::max(cfg.iteration, it->second.simulated);
    }
    if (replacer) slow = std::max(slow, replacer->iteration(cfg.iteration));
    rate *= cfg.iteration / slow;
    if (!shrunk.empty()) {
      std::vector<uint32_t> lost;
      for (const auto& s : shrunk) lost.insert(lost.end(), s.replicas.begin(), s.replicas.end());
      std::sort(lost.begin(), lost.end());
      lost.erase(std::unique(lost.begin(), lost.end()), lost.end());
      rate *= double(cfg.replicas - lost.size()) / cfg.replicas;
    }
  };
  auto next_change = [&] {
    double at = std::numeric_limits<double>::infinity();
    if (next_degradation < degradations.size()) at = degradations[next_degradation].at;
    for (const auto* d : active) at = std::min(at, d->at + d->duration);
    for (const auto& s : shrunk) at = std::min(at, s.rejoin);
    return at;
  };

  // Work done moving from position a to b of one cycle (b <= cycle), and the checkpoint time in it.
  auto advance = [&](double a, double b) {
    const double work = std::max(0.0, std::min(b, tau) - a);
    pending += work * rate;
    run.degraded += work * (1 - rate);
    run.checkpoint += std::max(0.0, b - std::max(a, tau));
  };
  // Peer checkpoints: drains that ended by `now` make their progress persistent; the next starts on the
  // newest snapshot at once.
  auto settle_persistent = [&](double now) {
    while (persist_active && now >= persist_end) {
      run.useful += persisting;
      in_peers -= persisting;
      persist_active = false;
      if (in_peers > 0) {
        persisting = in_peers;
        persist_end += peer->persistent_drain;
        persist_active = true;
      }
    }
  };
  // A snapshot is taken: synchronous, its progress is safe; asynchronous, once its drain ends; to peer
  // memory, safe unless a rank and its peer are lost together, and persistent once drained.
  auto commit = [&](double at) {
    ++run.checkpoints;
    if (peer != nullptr) {
      settle_persistent(at);
      in_peers += pending;
      if (!persist_active && in_peers > 0) {
        persisting = in_peers;
        persist_end = at + peer->persistent_drain;
        persist_active = true;
      }
    } else if (cfg.checkpoint_drain <= 0) {
      run.useful += pending;
    } else {
      run.useful += draining;  // the previous drain ended (drain < interval)
      draining = pending;
      drain_end = at + cfg.checkpoint_drain;
    }
    pending = 0;
  };

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
  auto count = [&](const Failure& f) -> const ComponentRate& {
    const auto& comp = rates.components[f.component];
    ++run.failures;
    ++run.by_component[comp.name];
    return comp;
  };
  // Peer checkpoints: the memory of `ranks` is gone for this downtime. When a rank's snapshot and its
  // peer's copy are both gone, the job restores from the persistent tier: the progress only the snapshots
  // held is lost too, and loading takes longer. Returns the text for the timeline.
  auto lose_memory = [&](const std::vector<uint64_t>& ranks, double at) -> std::string {
    if (peer == nullptr || restoring_from_persistent) return "";
    for (uint64_t r : ranks)
      if (!memory_lost[r]) memory_lost[r] = 1, lost_list.push_back(r);
    for (uint64_t r : ranks) {
      const uint64_t other = memory_lost[peer->peer_of_rank[r]] ? peer->peer_of_rank[r]
                             : memory_lost[holder_of[r]]        ? holder_of[r]
                                                                : r;
      if (other == r) continue;
      restoring_from_persistent = true;
      ++run.persistent_restores;
      settle_persistent(at);
      run.recompute += in_peers;
      in_peers = persisting = 0;
      persist_active = false;
      restart = cfg.restart + peer->persistent_load;
      return "; restore from the persistent tier (rank " + std::to_string(std::min(r, other)) +
             " and its peer rank " + std::to_string(std::max(r, other)) + " lost together)";
    }
    return "";
  };
  // A new downtime: no memory lost yet.
  auto begin_downtime = [&] {
    for (uint64_t r : lost_list) memory_lost[r] = 0;
    lost_list.clear();
    restoring_from_persistent = false;
    restart = cfg.restart;
  };

  // Recovery of `failed` ranks whose units are gone (`down`: the units taken down, which re-placement
  // keeps out of use until repaired): spares swapped in, ranks re-placed, replicas shrunk, or a wait for
  // repair. Returns the wait and says what it did in `action`.
  auto replace_ranks = [&](const std::vector<uint64_t>& failed, const std::vector<topology::NodeId>& down,
                           double at, std::string& action) {
    double wait = 0;
    const uint64_t need = failed.size();
    const std::string restore = lose_memory(failed, at);
    auto replace = [&] {
      return replacer ? replacer->replace(failed, down, at, cfg.swap, action)
                      : spares.replace(need, at, cfg.swap, action);
    };
    const bool enough = replacer ? replacer->can_replace(need, at) : spares.can_replace(need, at);
    if (cfg.elastic && !enough) {
      Shrink s{at + cfg.repair, {}};
      for (uint64_t r : failed) s.replicas.push_back(cfg.replica_of_rank.at(r));
      std::sort(s.replicas.begin(), s.replicas.end());
      s.replicas.erase(std::unique(s.replicas.begin(), s.replicas.end()), s.replicas.end());
      std::vector<uint32_t> all = s.replicas;
      for (const auto& o : shrunk) all.insert(all.end(), o.replicas.begin(), o.replicas.end());
      std::sort(all.begin(), all.end());
      if (uint64_t(std::unique(all.begin(), all.end()) - all.begin()) < cfg.replicas) {
        action = "shrink by " + std::to_string(s.replicas.size()) + " replica(s) until repaired";
        shrunk.push_back(std::move(s));
      } else {
        wait = replace();  // nothing left to run: wait
      }
    } else {
      wait = replace();
    }
    action += restore;
    return wait;
  };

  // A link or optical port fails at `at`. A port whose switch has a free port cabled to the same node is
  // re-patched (the switch's reconfiguration time). Otherwise the link loses the part's share until the
  // repair; a link that goes down entirely and cuts ranks off the job has them replaced instead (the
  // swap, re-placement or wait puts them where the job reaches them). Returns the wait.
  auto fabric_failure = [&](const Failure& f, double at, std::string& action) {
    if (rates.components[f.component].per == "optical-port") {
      const auto& port = job.optical_port(f.component, f.instance);
      for (; next_port_return < port_returns.size() && port_returns[next_port_return].first <= at;
           ++next_port_return)
        ++free_ports[port_returns[next_port_return].second];
      if (free_ports[port.spare_group] > 0) {
        --free_ports[port.spare_group];
        port_returns.emplace_back(at + cfg.repair, port.spare_group);
        action = "re-patch to a free port (optical reconfiguration " + std::to_string(port.reconfiguration) +
                 " s)";
        return port.reconfiguration;
      }
    }
    const topology::LinkId link = job.fabric_link(f.component, f.instance);
    const double share = job.fabric_share(f.component, f.instance);
    auto shares = outage_shares(at);
    const double lost = shares[link] + share;
    if (is_down(lost)) {
      std::vector<topology::LinkId> down{link};
      for (auto [l, x] : shares)
        if (l != link && is_down(x)) down.push_back(l);
      const auto cut = job.cut_off(down, replacer ? replacer->unit_of_rank() : job.unit_of_rank());
      if (!cut.ranks.empty()) {
        const double wait = replace_ranks(cut.ranks, cut.units, at, action);
        action = "cuts off " + std::to_string(cut.ranks.size()) + " rank(s): " + action;
        return wait;
      }
    }
    outages.push_back({at, cfg.repair, Degradation::Kind::kOutage, link, share,
                       job.instance_name(f.component, f.instance)});
    active.push_back(&outages.back());
    char text[96];
    std::snprintf(text, sizeof text, "restart with %.3g%% of the link until repaired", 100 * (1 - lost));
    action = is_down(lost) ? "restart without the link until repaired" : text;
    return 0.0;
  };

  // A memory pool fails at `at`: the job restarts (its checkpoint holds what the pool kept) with the
  // pool's ranks keeping their data in the nearest healthy pools with room until the repair; when one
  // finds no room, the job waits for the repair instead. Returns the wait.
  auto pool_failure = [&](const Failure& f, double at, std::string& action) {
    auto down = pools_down(at);
    down.push_back(job.memory_pool(f.instance));
    if (!job.pools_without(down)) {
      action = "wait for repair (no healthy memory pool has room for its ranks' data)";
      return cfg.repair;
    }
    outages.push_back({at, cfg.repair, Degradation::Kind::kPool, job.memory_pool(f.instance), 1.0,
                       job.instance_name(f.component, f.instance)});
    active.push_back(&outages.back());
    action = "restart with its ranks' data in the nearest pools with room until repaired";
    return 0.0;
  };

  // The job stops for a (non-silent) failure at `at`: returns the wait for a swap, repair or re-patch it
  // needs, or shrinks the job (elastic) and returns 0.
  auto interrupt = [&](const Failure& f, const ComponentRate& comp, double at, const char* when) {
    ++run.interruptions;
    std::string action = "restart";
    double wait = 0;
    if (comp.fabric()) {
      wait = fabric_failure(f, at, action);
    } else if (comp.memory_pool()) {
      wait = pool_failure(f, at, action);
    } else if (comp.recovery == Recovery::kReplace) {
      // The ranks it stops: with re-placement those running on its units now (ranks move), else its own.
      const auto down = replacer ? job.units_down(f.component, f.instance) : std::vector<topology::NodeId>{};
      const auto own = job.ranks_taken(f.component, f.instance);
      wait = replace_ranks(replacer ? replacer->failed_ranks(own, down) : own, down, at, action);
    }
    note(at, comp.name, f.instance, job.instance_name(f.component, f.instance), action + when);
    return wait;
  };

  // Downtime from `start` for a failure needing `wait` (swap or repair) between detection and restart;
  // failures in the meantime start it again. Returns when the job runs again (or the horizon).
  auto recover = [&](double start, double detection, double wait) {
    for (double at = start;;) {
      const double phases[3] = {detection, wait, restart};
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
  // A failure (or a found corruption) at t: progress since the last safe checkpoint is lost.
  auto lose_progress = [&] {
    begin_downtime();
    if (peer != nullptr) settle_persistent(t);  // the snapshots survive unless lose_memory says otherwise
    if (draining > 0 && t < drain_end) {
      pending += draining;  // the checkpoint being drained is incomplete
    } else {
      run.useful += draining;
    }
    draining = 0;
    run.recompute += pending;
    pending = 0;
    pos = 0;
  };

  update_rate();
  while (t < H) {
    const double change = next_change();
    const double stop = std::min({clock.next().at, change, H});
    // Run until `stop`: finish the current cycle, skip whole cycles, then the partial one.
    if (stop - t >= cycle - pos) {
      advance(pos, cycle);
      t += cycle - pos;
      pos = 0;
      if (corrupted) {  // validation of this checkpoint finds the corruption: roll back one cycle
        corrupted = false;
        ++run.interruptions;
        note(t, "sdc", 0, "", "rollback (corruption found at checkpoint validation)");
        lose_progress();
        t = recover(t, 0, 0);
        update_rate();
        continue;
      }
      commit(t);
      const double k = std::floor((stop - t) / cycle);
      if (k >= 1 && peer != nullptr) {  // drains end between snapshots: take the cycles one by one
        for (double i = 0; i < k; ++i) {
          advance(0, cycle);
          t += cycle;
          commit(t);
        }
      } else if (k >= 1) {  // whole cycles at the same rate: all but the last are safe by the next snapshot
        run.degraded += k * tau * (1 - rate);
        run.checkpoint += k * delta;
        run.checkpoints += static_cast<uint64_t>(k);
        if (cfg.checkpoint_drain <= 0) {
          run.useful += k * tau * rate;
        } else {
          run.useful += draining + (k - 1) * tau * rate;
          draining = tau * rate;
          drain_end = t + k * cycle + cfg.checkpoint_drain;
        }
        t += k * cycle;
      }
    }
    advance(pos, pos + (stop - t));
    pos += stop - t;
    t = stop;
    if (t >= H) break;
    if (clock.next().at > t) {  // a degradation began or ended, or replicas rejoined
      update_rate();
      continue;
    }

    const Failure f = clock.pop();
    const auto& comp = count(f);
    if (comp.silent) {
      corrupted = true;
      continue;
    }
    lose_progress();
    corrupted = false;
    const double wait = interrupt(f, comp, t, f.scripted ? " (scripted)" : "");
    t = recover(t, cfg.detection, wait);
    update_rate();
  }
  run.useful += pending + draining + in_peers;  // progress not yet checkpointed at the horizon is kept
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

namespace {

/// Refuses a run whose one seed expects more events than the config allows, before any is simulated.
void check_expected_events(const GoodputConfig& cfg, double mtbf, double interval) {
  const double failures = cfg.horizon / mtbf;
  const double stragglers =
      cfg.stragglers.rate_per_unit_hour * static_cast<double>(cfg.units) * cfg.horizon / 3600.0;
  const double cycles = cfg.peer != nullptr ? cfg.horizon / (interval + cfg.checkpoint_cost) : 0.0;
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
                                uint32_t seeds) {
  GoodputSummary s;
  s.seeds = seeds;
  std::optional<JobComponents> own;
  const JobComponents& job = cfg.job != nullptr ? *cfg.job : own.emplace(rates, cfg.units);
  s.mtbf = 3600.0 / job.rate_per_hour();
  s.interval = cfg.checkpoint.interval(s.mtbf, cfg.checkpoint_cost);
  check_expected_events(cfg, s.mtbf, s.interval);
  std::vector<double> ettr, goodput, failures, interruptions, persistent_restores;
  std::map<std::string, std::vector<double>> lost, by_component;
  for (const auto& c : rates.components) by_component[c.name];
  for (uint32_t k = 0; k < seeds; ++k) {
    GoodputRun run = simulate_goodput_once(rates, cfg, s.interval, core::splitmix64(seed + k), k == 0);
    ettr.push_back(run.useful / cfg.horizon);
    goodput.push_back(run.useful / cfg.iteration * cfg.tokens_per_iteration / cfg.horizon);
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
