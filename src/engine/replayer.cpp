// Replays a trace: the replay core with the fidelity the caller asked for.
#include "engine/replayer.hpp"

#include "core/input_error.hpp"
#include "engine/collapsed/collapsed_fidelity.hpp"
#include "engine/exact/exact_fidelity.hpp"
#include "engine/rank_slowdown.hpp"
#include "engine/replay_core.hpp"
#include "policy/placement/trace_fit.hpp"

namespace zs::engine {

Replayer::Replayer(const topology::Machine& machine, const workload::Trace& trace,
                   const policy::Placement& placement, const policy::CollectivePolicy& collective,
                   std::vector<topology::CircuitReconfiguration> reconfigurations,
                   const RankCollapse* collapse, bool record_timeline, core::ProgressSink* progress)
    : machine_(machine),
      trace_(trace),
      placement_(placement),
      collective_(collective),
      reconfigurations_(std::move(reconfigurations)),
      collapse_(collapse),
      record_timeline_(record_timeline),
      progress_(progress) {}

Replayer::~Replayer() = default;

ReplayResult Replayer::run() {
  policy::check_trace_fits(machine_, trace_, placement_);
  if (collapse_ != nullptr && !reconfigurations_.empty())
    throw core::InputError(
        trace_.name, "",
        "collapsed fidelity does not model optical circuit reconfigurations during the run; "
        "use exact fidelity or drop the reconfigurations");
  SimulatedRanks simulated;
  simulated.slowdown = slowdown_of_ranks(machine_, placement_, collapse_);
  simulated.record_timeline = record_timeline_;
  simulated.progress = progress_;
  if (collapse_ == nullptr) {
    ReplayCore core(machine_, trace_, placement_, collective_, std::move(simulated));
    ExactFidelity exact(core, reconfigurations_);
    return core.run(exact);
  }
  simulated.representatives = collapse_->representatives();
  simulated.stands_for = collapse_->multiplicity();
  ReplayCore core(machine_, trace_, placement_, collective_, std::move(simulated));
  CollapsedFidelity collapsed(core, *collapse_);
  return core.run(collapsed);
}

}  // namespace zs::engine
