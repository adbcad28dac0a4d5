// Days of training under failures: checkpoint/restart, spares and repair, by Monte Carlo over seeds.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "core/progress.hpp"
#include "core/units.hpp"
#include "policy/recovery/checkpoint_policy.hpp"
#include "policy/recovery/recovery_policy.hpp"
#include "policy/recovery/replace_recovery.hpp"
#include "reliability/degradation.hpp"
#include "reliability/degraded_iterations.hpp"
#include "reliability/failure_clock.hpp"
#include "reliability/failure_rates.hpp"
#include "reliability/job_components.hpp"
#include "reliability/re_placement.hpp"

namespace zs::reliability {

/// Stragglers drawn at random: each rank's unit starts straggling at `rate_per_unit_hour` (exponential),
/// for `duration`, its compute taking `slowdown` times as long.
struct StragglerProcess {
  double rate_per_unit_hour = 0;  ///< 1/h; 0: none
  double slowdown = 2;
  double duration = 0;  ///< s
};

/// Two-tier checkpoints: every checkpoint is a snapshot each rank keeps in its own memory and copies to
/// its peer's; snapshots drain to a persistent tier in the background, one at a time (a drain that ends
/// starts on the newest snapshot). A failure loses a rank's memory when its part is replaced (recovery
/// "replace"; a crashed process's snapshot is taken to be held by a separate agent and kept). The job
/// restores from the snapshots when every rank's own or peer copy survived, else from the persistent tier:
/// the progress since its last completed drain is lost and loading it takes `persistent_load` on top of
/// the restart.
struct PeerCheckpoints {
  std::vector<uint64_t> peer_of_rank;  ///< whose memory holds each rank's copy
  core::Seconds persistent_drain{0};   ///< one snapshot to the persistent tier, all ranks together
  core::Seconds persistent_load{0};    ///< reading a checkpoint back from it, all ranks together
};

/// A job and its recovery setup. Times in seconds.
struct GoodputConfig {
  core::Seconds iteration{0};              ///< one training iteration on the healthy machine (the engine's)
  double tokens_per_iteration = 0;         ///< for goodput
  uint64_t units = 0;                      ///< units the job runs on
  core::Seconds horizon{0};                ///< wall-clock time simulated
  core::Seconds checkpoint_cost{0};        ///< a synchronous checkpoint blocks training this long
  policy::CheckpointPolicy checkpoint;
  core::Seconds detection{0};  ///< from the failure to the job knowing
  core::Seconds restart{0};    ///< re-initialization and loading the checkpoint
  uint32_t spares = 0;         ///< hot spare units
  core::Seconds swap{0};       ///< putting spares in place of failed units
  core::Seconds repair{0};     ///< a failed unit back in service (in the spare pool, or the job's if none)
  /// The job's component instances (topology domains need the machine); null: unit, host and job
  /// components of `units` ranks.
  std::shared_ptr<const JobComponents> job;
  std::vector<Failure> scripted;  ///< failures at given times, besides the random ones (scripted = true)
  /// What replaces the ranks a failed part stops: spares, a shrink or the repair (policy::RankLoss).
  std::shared_ptr<const policy::RecoveryPolicy> recovery = std::make_shared<policy::ReplaceRecovery>();
  /// A shrink goes on without the data-parallel replicas a failure touched (restart, no wait) until the
  /// failed units are repaired; they rejoin at no cost. Set when the recovery policy may shrink.
  uint32_t replicas = 1;                  ///< data-parallel replicas of the job
  std::vector<uint32_t> replica_of_rank;  ///< each rank's replica; empty: the job is not shrunk
  /// Asynchronous checkpoints: after the blocking snapshot (checkpoint_cost) the state drains to the store
  /// in the background for this long; a failure before the drain ends loses that checkpoint too. 0:
  /// synchronous.
  core::Seconds checkpoint_drain{0};
  std::vector<Degradation> degradations;  ///< scripted ones
  StragglerProcess stragglers;            ///< random ones
  /// The iteration times while degradations are in force (the engine re-simulates them); needed when
  /// there are any. The seeds fill its cache of states; the caller reads the states met once done.
  std::shared_ptr<DegradedIterations> degraded;
  /// Re-placement: spares are the machine's idle units, and a failure's ranks move onto the ones the
  /// placement policy picks (instead of `spares` abstract units swapped in place). Null: not used. Its
  /// cache of displaced iterations fills as the seeds meet them.
  std::shared_ptr<const RePlacementSetup> re_placement;
  /// Per rank, its class for the cache of degraded iteration times: a straggler on any rank of a class is
  /// taken to cost the same (the ranks that run the same program). Empty: every rank its own class.
  std::vector<uint32_t> class_of_rank;
  /// Two-tier checkpoints to peer memory (checkpoint_cost is then the snapshot's, checkpoint_drain 0).
  /// Null: one tier.
  std::shared_ptr<const PeerCheckpoints> peer;
  /// Events one seed may be expected to simulate (failures, random stragglers, peer-checkpoint cycles)
  /// before a run is refused; bounds time and memory (the first seed's timeline keeps every event).
  double max_events_per_seed = kDefaultMaxEventsPerSeed;
  static constexpr double kDefaultMaxEventsPerSeed = 1e6;
};

/// One interruption of the timeline.
struct TimelineEvent {
  double at = 0;  ///< s
  std::string component;
  uint64_t instance = 0;
  std::string instance_name;
  std::string action;  ///< "restart", "swap", "wait for repair", "shrink", "rollback (...)", "straggler", ...
};

/// Where one seed's wall time went. The parts add up to the horizon.
struct GoodputRun {
  double useful = 0;           ///< training progress kept, s
  double recompute = 0;        ///< progress lost to failures (since the last good checkpoint), s
  double checkpoint = 0;       ///< blocked in checkpoints, s
  double detection = 0;        ///< s
  double restart = 0;          ///< s
  double waiting = 0;          ///< for a spare swap, a repair or an optical re-patch, s
  double degraded = 0;         ///< progress not made while running slower or with fewer replicas, s
  uint64_t failures = 0;       ///< component failures (silent ones included, whether found or not)
  uint64_t interruptions = 0;  ///< times the job stopped (a failure, a failure during recovery, a rollback)
  uint64_t checkpoints = 0;    ///< completed
  uint64_t persistent_restores =
      0;  ///< peer checkpoints: restores from the persistent tier (a rank and its peer lost)
  std::map<std::string, uint64_t> by_component;
  std::vector<TimelineEvent> timeline;
};

/// A figure over the seeds: mean and the half-width of its 95% confidence interval (normal approximation,
/// 1.96 standard errors).
struct Estimate {
  double mean = 0;
  double half_width = 0;
};

struct GoodputSummary {
  double interval = 0;  ///< the checkpoint interval used, s of work
  double mtbf = 0;      ///< the job's mean time between failures at the start, s
  uint32_t seeds = 0;
  Estimate ettr;     ///< useful / horizon
  Estimate goodput;  ///< useful tokens per wall-clock second
  Estimate failures;
  Estimate interruptions;
  Estimate persistent_restores;          ///< restores from the persistent tier (peer checkpoints)
  std::map<std::string, Estimate> lost;  ///< recompute, checkpoint, detection, restart, waiting, degraded: s
  std::map<std::string, Estimate> by_component;
  GoodputRun first;  ///< the first seed's run, with its timeline
};

/// One seed. Failures of each component are renewal processes (exponential or Weibull lifetimes, seeded
/// from `seed`, independent of what the job does, so runs that differ only in their checkpoint interval
/// see the same failures). Training alternates `interval` of work and a checkpoint; a failure loses the
/// work since the last good checkpoint and costs detection, a swap or a repair wait for "replace"
/// components, and the restart; a failure during that downtime starts it again. A silent corruption is
/// found when the next checkpoint is validated, which then rolls back instead of committing.
GoodputRun simulate_goodput_once(const FailureRates& rates, const GoodputConfig& config, double interval,
                                 uint64_t seed, bool keep_timeline);

/// A run whose expected events per seed exceed GoodputConfig::max_events_per_seed (a horizon in years
/// of 10^15 days, a failure table whose period was typed in microseconds).
class WorkLimitExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `seeds` seeds from `seed`; the interval from the config's checkpoint policy and the job's MTBF.
/// `progress`, when given, is told the seeds done during the call. Throws WorkLimitExceeded before
/// simulating anything when one seed expects too many events.
GoodputSummary simulate_goodput(const FailureRates& rates, const GoodputConfig& config, uint64_t seed,
                                uint32_t seeds, core::ProgressSink* progress = nullptr);

}  // namespace zs::reliability
