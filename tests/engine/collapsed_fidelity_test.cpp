// Collapsed fidelity agrees with exact fidelity on scenarios small enough for both.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/file_source.hpp"
#include "engine/rank_collapse.hpp"
#include "engine/simulation.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"

using namespace zs;

namespace {

struct Both {
  engine::SimulationResult exact, collapsed;
};

Both run_both(const std::string& name) {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
  auto placement = policy::make_placement_policy(s.placement_policy, nullptr);
  auto collective = policy::make_collective_policy(s.collective_policy);
  const engine::SimulationEvents events{s.circuit_reconfigurations, s.seed};
  return {
      engine::simulate(s.machine, s.trace, *placement, *collective, events, engine::Fidelity::kExact),
      engine::simulate(s.machine, s.trace, *placement, *collective, events, engine::Fidelity::kCollapsed)};
}

/// Each representative's breakdown against the same rank's in exact fidelity: within 5% of the term,
/// or 0.1% of the iteration for terms near zero.
void check_agreement(const Both& r) {
  const double t = r.exact.replay.iteration_time.value();
  CAPTURE(t);
  CAPTURE(r.collapsed.replay.iteration_time.value());
  CHECK(r.exact.replay.fidelity == "exact");
  CHECK(r.collapsed.replay.fidelity == "collapsed");
  CHECK(std::abs(r.collapsed.replay.iteration_time.value() / t - 1.0) < 0.02);
  for (const auto& rep : r.collapsed.replay.ranks) {
    const auto& e = r.exact.replay.ranks.at(rep.rank);
    CAPTURE(rep.rank);
    auto close = [&](double collapsed, double exact) {
      INFO("collapsed " << collapsed << " s, exact " << exact << " s");
      return std::abs(collapsed - exact) <= std::max(0.05 * exact, 0.001 * t);
    };
    CHECK(close(rep.compute.value(), e.compute.value()));
    CHECK(close(rep.exposed_comm.value(), e.exposed_comm.value()));
    CHECK(close(rep.pipeline_bubble.value(), e.pipeline_bubble.value()));
    CHECK(close(rep.memory_stall.value(), e.memory_stall.value()));
    CHECK(close(rep.idle.value(), e.idle.value()));
    REQUIRE(rep.exposed_by_communicator.size() == e.exposed_by_communicator.size());
    for (size_t c = 0; c < e.exposed_by_communicator.size(); ++c) {
      CAPTURE(e.exposed_by_communicator[c].first);
      CHECK(
          close(rep.exposed_by_communicator[c].second.value(), e.exposed_by_communicator[c].second.value()));
    }
  }
}

}  // namespace

TEST_CASE("collapsed fidelity simulates one rank per class of symmetric ranks") {
  const auto r = run_both("hgx-3d-parallel");     // data 2 x pipeline 2 x tensor 2
  REQUIRE(r.collapsed.replay.ranks.size() == 2);  // one per pipeline stage
  CHECK(r.collapsed.replay.ranks[0].rank == 0);
  CHECK(r.collapsed.replay.ranks[1].rank == 4);
  CHECK(r.collapsed.replay.ranks[0].stands_for == 4);
  CHECK(r.collapsed.replay.collapsed_axes == std::vector<std::string>{"dp", "tp"});
  check_agreement(r);
}

TEST_CASE(
    "collapsed agrees with exact on an oversubscribed fat-tree where data-parallel rings share uplinks") {
  check_agreement(run_both("fat-tree-oversubscribed"));
}

TEST_CASE("collapsed stays within 4% of exact on an MoE with Zipf-skewed routing (2% not met yet)") {
  // Known gap: the two pipeline stages' all-to-alls cross the optical core at the same time, so in
  // exact fidelity they slow each other down; collapsed fidelity lets a communication contend only
  // with its own copies, and its iteration comes out 2.8% long. The hot expert's compute is exact.
  const auto r = run_both("moe-ep-64");
  const double t = r.exact.replay.iteration_time.value();
  CHECK(std::abs(r.collapsed.replay.iteration_time.value() / t - 1.0) < 0.04);
  for (const auto& rep : r.collapsed.replay.ranks) {
    CAPTURE(rep.rank);
    CHECK(rep.compute.value() ==
          doctest::Approx(r.exact.replay.ranks.at(rep.rank).compute.value()).epsilon(1e-6));
  }
}

TEST_CASE("collapsed agrees with exact on the default scenario") {
  check_agreement(run_both("default"));
}
