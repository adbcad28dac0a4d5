// Builds a collective schedule step by step with rendezvous dependencies between its transfers.
#pragma once

#include <cstdint>
#include <vector>

#include "policy/collective/collective_policy.hpp"

namespace zs::policy {

/// Appends transfers step by step. A member's send waits for its previous send and for everything it
/// received since (the data it forwards or reduces), and for the receiver to be done with its own earlier
/// steps: the rendezvous of large messages in MPI and NCCL. Without the receiver's side, an idle member's
/// send would overlap the receiver's earlier step and share its link, which no real implementation does.
class ScheduleBuilder {
 public:
  /// `endpoints`: the members (and any switch endpoints) the transfers may name.
  ScheduleBuilder(CollectiveSchedule& schedule, uint32_t endpoints);

  /// `pipelined`: see Transfer::pipelined.
  void send(uint32_t src, uint32_t dst, double bytes, bool pipelined = false);
  /// Ends a step: its transfers become the members' last sends and pending receives.
  void end_step();
  /// Steps ended so far.
  uint32_t steps() const { return schedule_.steps; }

 private:
  struct Sent {
    uint32_t src, dst, index;
  };
  CollectiveSchedule& schedule_;
  std::vector<int64_t> last_send_;
  std::vector<std::vector<uint32_t>> received_;
  std::vector<Sent> step_;
};

/// A ring over `ring` (members in ring order): `steps` steps in which each sends `bytes` to its successor.
/// Several rings may be added to the same steps by calling this for each before ending them; this ends
/// every step it adds.
void ring_steps(ScheduleBuilder& builder, const std::vector<std::vector<uint32_t>>& rings, uint32_t steps,
                double bytes);

}  // namespace zs::policy
