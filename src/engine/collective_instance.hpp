// One collective in flight during a replay: its group, its schedule of transfers and their progress.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/units.hpp"
#include "policy/collective/collective_policy.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// Created when the first member of a communicator group issues its n-th collective; its schedule's
/// transfers run as their dependencies allow, or (analytic, collapsed fidelity) one analytic cost is
/// charged once the representatives have joined.
struct CollectiveInstance {
  workload::CollectiveKind kind;
  core::Bytes bytes;              ///< the buffer per rank, B
  std::vector<uint64_t> members;  ///< ranks in communicator order
  policy::CollectiveSchedule schedule;
  std::vector<uint32_t> op_of_member;  ///< the op each member issued it as
  std::vector<bool> arrived;
  std::vector<uint32_t> remaining_of_member;  ///< transfers the member still sends or receives
  std::vector<std::vector<uint32_t>> transfers_of_member;
  std::vector<uint32_t> pending_after;            ///< by transfer: earlier transfers it still waits for
  std::vector<std::vector<uint32_t>> successors;  ///< by transfer
  std::vector<bool> started;                      ///< by transfer
  /// Run transfer by transfer with the machine's step latency on: per schedule step, the mean step
  /// latency of the routes of its transfers that move bytes and are not pipelined, s (what each of them
  /// pays at least; a pipelined one pays its physical latency only); empty otherwise.
  std::vector<double> step_latency;
  /// Run transfer by transfer with the machine's step latency on: the collective library's fixed cost
  /// (policy::collective_base_latency), paid before each transfer of the first step that is not
  /// pipelined starts, s.
  double base_latency = 0;
  uint32_t done_members = 0;
  /// When the last member joined, s (so far, until all have): a member's time in the collective before
  /// it is waiting (RankBreakdown::collective_wait). Collapsed: when the costed parts may start.
  double last_join = 0;
  std::vector<double> load_of_member;  ///< expert dispatch: tokens received / nominal
  double duration = 0;                 ///< collapsed: the analytic cost, s
  /// Collapsed: B per link direction it loads while in flight (CollapsedCosts::Charge::shared_bytes).
  std::vector<std::pair<uint32_t, double>> shared_bytes;
  double max_load = 1;           ///< collapsed, expert dispatch: the group's largest load
  double ready_at = 0;           ///< collapsed: when the slowest member (a copy too) joins, s
  uint32_t arrived_members = 0;  ///< collapsed: representatives that joined
  /// Costed as a whole by the fidelity (collapsed: one analytic charge), not run transfer by transfer
  /// from its schedule; the members join it through ReplayFidelity::join_analytic.
  bool analytic = false;
  /// Collapsed, expert dispatch routed per call: the load of every member of the group.
  std::vector<double> group_load;
  /// Collapsed, expert combine routed per call: when each member of the group joins, s (the latest
  /// estimate of the representatives); empty when not known.
  std::vector<double> member_ready;
  /// Collapsed: a share of the cost that starts on its own, when its members have joined.
  struct Part {
    double start = 0;    ///< s
    double seconds = 0;  ///< alone, s
    std::vector<std::pair<uint32_t, double>> shared_bytes;
  };
  std::vector<Part> parts;  ///< collapsed: set once every representative joined
  uint32_t parts_left = 0;  ///< collapsed: parts still in flight or to start
};

}  // namespace zs::engine
