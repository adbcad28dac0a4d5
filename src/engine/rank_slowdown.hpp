// Which simulated ranks straggle, and by how much, from the machine's slow units.
#pragma once

#include <cstdint>
#include <map>

#include "engine/collapsed/rank_collapse.hpp"
#include "policy/placement/placement_policy.hpp"
#include "topology/machine.hpp"

namespace zs::engine {

/// Per simulated rank whose unit is in machine.unit_slowdown, how many times as long its compute takes.
/// Collapsed (`collapse` not null): the representative takes the slowest factor among the ranks it stands
/// for, since their groups wait for the slowest. Units the job does not run on are ignored.
std::map<uint64_t, double> slowdown_of_ranks(const topology::Machine& machine,
                                             const policy::Placement& placement,
                                             const RankCollapse* collapse);

}  // namespace zs::engine
