// Spares that are the machine's idle units: failed ranks move onto the ones the placement policy picks.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"

namespace zs::reliability {

/// What re-placement needs, shared by the seeds.
struct RePlacementSetup {
  std::shared_ptr<const topology::Machine> machine;
  std::shared_ptr<const policy::PlacementPolicy> policy;
  std::vector<topology::NodeId> unit_of_rank;  ///< where the job starts; every other unit is idle
  /// Re-pointing the optical circuits when a rank moves to another electrical island (a pod joined to
  /// the others by optical circuit switches), s: the slowest optical switch model's reconfiguration time;
  /// 0 on a machine without optical switches.
  double reconfiguration = 0;
  /// The iteration time with `rank` on `unit` instead of its starting unit, s (the engine re-simulates
  /// it).
  std::function<double(uint64_t rank, topology::NodeId unit)> displaced_iteration;
  /// Per rank, its class (the ranks running the same program); empty: every rank its own class.
  std::vector<uint32_t> class_of_rank;

  /// Key of one displacement: the rank's class, links from its starting unit to its unit now, and
  /// whether it left its electrical island. Displacements with the same key are taken to cost the same.
  using Key = std::tuple<uint32_t, uint32_t, bool>;
  /// Simulated iteration times by key, filled as displacements are first seen (by any seed), s.
  mutable std::map<Key, double> iteration_by_key;
};

/// One seed's idle units and where the job runs now. A failure's ranks move onto idle units (the
/// placement policy's re_place picks them); the failed units, and the idle units the failure took down
/// with them, return to the idle units after the repair time. Ranks never move back by themselves.
class RePlacer {
 public:
  RePlacer(const RePlacementSetup& setup, double repair);

  /// The ranks a failure stops: those now running on the units it takes down (`down`, a topology
  /// domain's units), else `ranks` (a unit's or host's ranks, which move with their rank).
  std::vector<uint64_t> failed_ranks(const std::vector<uint64_t>& ranks,
                                     const std::vector<topology::NodeId>& down) const;
  /// Units idle at `now` (units repaired by then rejoin the idle ones first).
  uint64_t idle_units(double now);
  /// Recovery from a failure at `now` of `ranks` (from failed_ranks) and the units `down`: with enough
  /// idle units, the ranks move onto them, taking `swap` s plus the optical reconfiguration when a rank
  /// changes island; otherwise the job waits `repair` s for its own units. Says what it did in `action`.
  double replace(const std::vector<uint64_t>& ranks, const std::vector<topology::NodeId>& down, double now,
                 double swap, std::string& action);
  /// The job waits `repair` s for its own units after a failure at `now` of the units `down` (kept out of
  /// the idle ones until repaired); says so in `action`.
  double wait_for_repair(const std::vector<topology::NodeId>& down, double now, std::string& action);
  /// The iteration time while the current displacements hold: the slowest of the displaced ranks' own
  /// (each simulated alone, once per key), or `healthy` when no rank is displaced, s.
  double iteration(double healthy) const;
  const std::vector<topology::NodeId>& unit_of_rank() const { return unit_of_rank_; }

 private:
  void return_repaired(double now);

  const RePlacementSetup& setup_;
  double repair_;  ///< s
  std::vector<uint32_t> island_;
  std::vector<topology::NodeId> unit_of_rank_;
  std::set<topology::NodeId> idle_;
  std::set<topology::NodeId> in_use_;
  std::vector<std::pair<double, std::vector<topology::NodeId>>> repairs_;  ///< (back at s, units), in order
  size_t next_repair_ = 0;
  std::map<uint64_t, RePlacementSetup::Key> displaced_;  ///< ranks off their starting unit
};

}  // namespace zs::reliability
