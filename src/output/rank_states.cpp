// Rank states over time from the ops' spans.
#include "output/rank_states.hpp"

#include <algorithm>
#include <array>
#include <tuple>

namespace zs::output {

const char* to_string(RankState s) {
  switch (s) {
    case RankState::kCompute:
      return "compute";
    case RankState::kExposedCommunication:
      return "exposed communication";
    case RankState::kPipelineBubble:
      return "pipeline bubble";
    case RankState::kMemoryStall:
      return "memory stall";
    case RankState::kCollectiveWait:
      return "collective wait";
    case RankState::kIdle:
      break;
  }
  return "idle";
}

RankState state_of(const workload::Op& op) {
  if (std::holds_alternative<workload::ComputeOp>(op.body)) return RankState::kCompute;
  if (std::holds_alternative<workload::CollectiveOp>(op.body)) return RankState::kExposedCommunication;
  if (std::holds_alternative<workload::P2POp>(op.body)) return RankState::kPipelineBubble;
  return RankState::kMemoryStall;
}

namespace {

/// One rank's spans (time, +1 starting / -1 ending, state) to its states over [0, end].
std::vector<StateInterval> states_of(std::vector<std::tuple<double, int, RankState>> edges, double end) {
  std::sort(edges.begin(), edges.end());  // ends (-1) before starts (+1) at one instant
  std::vector<StateInterval> out;
  std::array<int, kRankStates> active{};
  double at = 0;
  auto current = [&] {
    for (int s = 0; s < kRankStates - 1; ++s)
      if (active[s] > 0) return RankState(s);
    return RankState::kIdle;
  };
  auto close_until = [&](double t) {
    if (t <= at) return;
    const RankState s = current();
    if (!out.empty() && out.back().state == s && out.back().end == at)
      out.back().end = t;
    else
      out.push_back({at, t, s});
    at = t;
  };
  for (const auto& [t, change, state] : edges) {
    close_until(t);
    active[int(state)] += change;
  }
  close_until(end);
  return out;
}

}  // namespace

std::vector<std::vector<StateInterval>> rank_states(const engine::ReplayTimeline& timeline,
                                                    const workload::Trace& trace,
                                                    const std::vector<uint32_t>& role_of_slot,
                                                    double iteration_end) {
  std::vector<std::vector<std::tuple<double, int, RankState>>> edges(role_of_slot.size());
  for (const auto& span : timeline.spans) {
    if (span.end <= span.start) continue;
    const RankState s = state_of(trace.roles[role_of_slot[span.slot]].ops[span.op]);
    double from = span.start;
    if (s == RankState::kExposedCommunication && span.joined > span.start) {  // waiting for the group first
      from = std::min(span.joined, span.end);
      edges[span.slot].emplace_back(span.start, +1, RankState::kCollectiveWait);
      edges[span.slot].emplace_back(from, -1, RankState::kCollectiveWait);
    }
    edges[span.slot].emplace_back(from, +1, s);
    edges[span.slot].emplace_back(span.end, -1, s);
  }
  std::vector<std::vector<StateInterval>> out;
  out.reserve(edges.size());
  for (auto& e : edges) out.push_back(states_of(std::move(e), iteration_end));
  return out;
}

}  // namespace zs::output
