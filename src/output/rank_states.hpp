// What each simulated rank was doing over time: the states its time breakdown counts.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/replay_timeline.hpp"
#include "workload/trace.hpp"

namespace zs::output {

/// The states of a rank, in the order the breakdown ranks them: at each instant a rank is in the first
/// state whose kind of op it has in flight (compute, then a collective whose members have all joined,
/// then a point-to-point transfer, then a memory move, then a collective still waiting for members),
/// else idle.
enum class RankState : uint8_t {
  kCompute,
  kExposedCommunication,
  kPipelineBubble,
  kMemoryStall,
  kCollectiveWait,
  kIdle
};
inline constexpr int kRankStates = 6;

/// "compute", "exposed communication", "pipeline bubble", "memory stall", "collective wait", "idle" (the
/// summary's breakdown keys with spaces).
const char* to_string(RankState s);

struct StateInterval {
  double start = 0, end = 0;  ///< s
  RankState state = RankState::kIdle;
};

/// Per simulated rank (slot), its states from 0 to `iteration_end` (s), adjacent intervals of one state
/// merged; they tile [0, iteration_end]. The compute intervals add up to the rank's breakdown compute
/// time, and so on for each state (the same union the breakdown takes).
std::vector<std::vector<StateInterval>> rank_states(const engine::ReplayTimeline& timeline,
                                                    const workload::Trace& trace,
                                                    const std::vector<uint32_t>& role_of_slot,
                                                    double iteration_end);

/// The kind of `op` as a state: compute, collective (exposed communication; its time before the last
/// member joined is kCollectiveWait, which rank_states splits off), point-to-point (bubble), memory move
/// (memory stall).
RankState state_of(const workload::Op& op);

}  // namespace zs::output
