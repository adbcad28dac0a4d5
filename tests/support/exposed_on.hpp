// Test helper: the seconds one rank's collectives on one communicator were exposed.
#pragma once

#include <string>

#include "engine/replay_result.hpp"

namespace zs::test {

/// The rank's exposed time on `communicator`, s; 0 when the rank used no such communicator.
inline double exposed_on(const engine::RankBreakdown& rank, const std::string& communicator) {
  for (const auto& [name, seconds] : rank.exposed_by_communicator)
    if (name == communicator) return seconds.value();
  return 0.0;
}

}  // namespace zs::test
