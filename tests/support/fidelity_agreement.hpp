// Test helper: a shipped scenario in exact and collapsed fidelity, and their agreement per rank and term.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "core/file_source.hpp"
#include "engine/simulation.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::test {

struct Both {
  engine::SimulationResult exact, collapsed;
};

/// `straggler` > 1: the unit of rank `rank` computes that many times slower.
inline Both run_both(const std::string& name, uint64_t rank = 0, double straggler = 1.0) {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
  if (straggler > 1) {
    const auto placed =
        policy::make_placement_policy(s.placement_policy, nullptr)->place({s.trace, s.machine, s.seed});
    s.machine.unit_slowdown[placed.unit_of_rank.at(rank)] = straggler;
  }
  auto placement = policy::make_placement_policy(s.placement_policy, nullptr);
  auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  const engine::SimulationEvents events{s.circuit_reconfigurations, s.seed};
  return {
      engine::simulate(s.machine, s.trace, *placement, *collective, events, engine::Fidelity::kExact),
      engine::simulate(s.machine, s.trace, *placement, *collective, events, engine::Fidelity::kCollapsed)};
}

/// Each representative's breakdown against the same rank's in exact fidelity: within 5% of the term
/// (or of `looser` for the communicators it names), or 0.1% of the iteration for terms near zero.
inline void check_agreement(const Both& r, const std::map<std::string, double>& looser = {}) {
  const double t = r.exact.replay.iteration_time.value();
  CAPTURE(t);
  CAPTURE(r.collapsed.replay.iteration_time.value());
  CHECK(r.exact.replay.fidelity == core::Fidelity::kExact);
  CHECK(r.collapsed.replay.fidelity == core::Fidelity::kCollapsed);
  CHECK(std::abs(r.collapsed.replay.iteration_time.value() / t - 1.0) < 0.02);
  for (const auto& rep : r.collapsed.replay.ranks) {
    const auto& e = r.exact.replay.ranks.at(rep.rank);
    CAPTURE(rep.rank);
    auto close = [&](double collapsed, double exact, double tolerance = 0.05) {
      INFO("collapsed " << collapsed << " s, exact " << exact << " s");
      return std::abs(collapsed - exact) <= std::max(tolerance * exact, 0.001 * t);
    };
    CHECK(close(rep.compute.value(), e.compute.value()));
    CHECK(close(rep.exposed_comm.value(), e.exposed_comm.value()));
    CHECK(close(rep.pipeline_bubble.value(), e.pipeline_bubble.value()));
    CHECK(close(rep.memory_stall.value(), e.memory_stall.value()));
    CHECK(close(rep.idle.value(), e.idle.value()));
    REQUIRE(rep.exposed_by_communicator.size() == e.exposed_by_communicator.size());
    for (size_t c = 0; c < e.exposed_by_communicator.size(); ++c) {
      const auto& name = e.exposed_by_communicator[c].first;
      CAPTURE(name);
      const auto tolerance = looser.find(name);
      const double collapsed = rep.exposed_by_communicator[c].second.value();
      const double exact = e.exposed_by_communicator[c].second.value();
      CHECK_MESSAGE(close(collapsed, exact, tolerance == looser.end() ? 0.05 : tolerance->second),
                    "collapsed " << collapsed << " s, exact " << exact << " s");
    }
  }
}

}  // namespace zs::test
