// One seed of the goodput Monte Carlo: the job's wall-clock time from 0 to the horizon, event by event.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reliability/failure_clock.hpp"
#include "reliability/goodput_simulator.hpp"
#include "reliability/re_placement.hpp"
#include "reliability/spare_pool.hpp"

namespace zs::reliability {

/// Training alternates `interval` of work and a checkpoint; failures (FailureClock), degradations and
/// shrinks change what the time is worth. One method per event; run() once.
class GoodputSimulation {
 public:
  /// Reads `config` (held by reference for the simulation's life); its caches of degraded and displaced
  /// iterations fill as states are first met.
  GoodputSimulation(const FailureRates& rates, const GoodputConfig& config, double interval, uint64_t seed,
                    bool keep_timeline);

  /// Simulates the horizon; where the time went.
  GoodputRun run();

 private:
  /// Replicas dropped by a shrink (the recovery policy's kShrink) until `rejoin`, s.
  struct Shrink {
    double rejoin = 0;
    std::vector<uint32_t> replicas;
  };

  // Training between events.
  bool finish_cycles(double stop);
  void advance(double from, double to);
  void commit_checkpoint(double at);
  void settle_persistent(double now);

  // The machine's state: degradations, outages, shrinks, and the rate of progress they leave.
  void update_rate();
  double degraded_iteration();
  double next_change() const;
  std::map<topology::LinkId, double> outage_shares(double at) const;
  std::vector<topology::NodeId> pools_down(double at) const;

  // Failures and recovery.
  void on_failure(const Failure& f, const ComponentRate& component);
  void on_corruption_found();
  const ComponentRate& count(const Failure& f);
  double interrupt(const Failure& f, const ComponentRate& component, double at, const char* when);
  double fabric_failure(const Failure& f, double at, std::string& action);
  double pool_failure(const Failure& f, double at, std::string& action);
  double replace_ranks(const std::vector<uint64_t>& failed, const std::vector<topology::NodeId>& down,
                       double at, std::string& action);
  double choose_recovery(const std::vector<uint64_t>& failed, const std::vector<topology::NodeId>& down,
                         double at, std::string& action);
  double use_spares(const std::vector<uint64_t>& failed, const std::vector<topology::NodeId>& down, double at,
                    std::string& action);
  Shrink shrink_for(const std::vector<uint64_t>& failed, double at) const;
  uint64_t replicas_running() const;
  double recover(double start, double detection, double wait);
  void charge_downtime(double from, double until, const double (&phases)[3]);
  void lose_progress();
  void begin_downtime();
  std::string lose_memory(const std::vector<uint64_t>& ranks, double at);
  void note(double at, const std::string& component, uint64_t instance, const std::string& name,
            const std::string& action);

  // The job and its horizon: what fails, what recovers it, the checkpoint cycle.
  const FailureRates& rates_;
  const GoodputConfig& cfg_;
  const bool keep_timeline_;
  std::optional<JobComponents> own_job_;  ///< when the config names none: unit, host and job components
  const JobComponents& job_;
  FailureClock clock_;
  SparePool spares_;
  std::optional<RePlacer> replacer_;
  const double tau_;    ///< s of work between checkpoints
  const double delta_;  ///< s, a blocking checkpoint
  const double cycle_;  ///< tau + delta, s
  const double horizon_;
  GoodputRun run_;  ///< what the run reports

  // Progress: the clock, the position in the checkpoint cycle and what is not yet safe.
  double t_ = 0;          ///< wall time, s
  double pos_ = 0;        ///< position in the current work + checkpoint cycle, s
  double pending_ = 0;    ///< progress since the last snapshot, s of healthy training
  double draining_ = 0;   ///< asynchronous: progress of the last snapshot, safe once its drain ends
  double drain_end_ = 0;  ///< s
  bool corrupted_ = false;
  double rate_ = 1;  ///< progress per s of work: 1 when healthy and whole

  // Peer checkpoints: snapshotted progress not yet in the persistent tier, and the drain to it.
  const PeerCheckpoints* peer_;
  double in_peers_ = 0;     ///< progress safe in the snapshots only
  double persisting_ = 0;   ///< the part of it the drain in progress covers
  double persist_end_ = 0;  ///< when that drain ends, s
  bool persist_active_ = false;
  double restart_;                          ///< this downtime's restart, s (longer from the persistent tier)
  std::vector<char> memory_lost_;           ///< this downtime: ranks whose memory is gone
  std::vector<uint64_t> lost_list_;         ///< the marked ranks, to clear
  std::vector<uint64_t> holder_of_;         ///< by rank: whose snapshot copy it holds
  bool restoring_from_persistent_ = false;  ///< this downtime restores from the persistent tier

  // Degradations (scripted and drawn, by start) and those in force; outages of fabric parts and memory
  // pools (referenced by `active_`) until repaired; free optical ports a failed port can be re-patched to.
  std::vector<Degradation> degradations_;
  size_t next_degradation_ = 0;
  std::vector<const Degradation*> active_;
  std::vector<Shrink> shrunk_;
  std::deque<Degradation> outages_;
  std::vector<uint32_t> free_ports_;
  std::vector<std::pair<double, uint32_t>> port_returns_;  ///< (back at s, spare group), in time order
  size_t next_port_return_ = 0;
};

}  // namespace zs::reliability
