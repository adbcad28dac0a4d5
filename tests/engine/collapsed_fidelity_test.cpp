// Collapsed fidelity agrees with exact fidelity on scenarios small enough for both.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "core/file_source.hpp"
#include "engine/collapsed/rank_collapse.hpp"
#include "engine/replayer.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"
#include "support/fidelity_agreement.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;
using zs::test::Both;
using zs::test::check_agreement;
using zs::test::run_both;

namespace {

/// Collapsed fidelity's replayer on shipped scenario `name`, whatever simulate() would choose: with a
/// trace whose routing is drawn per call, every rank with analytic network costs.
/// Scenario `name` through the replayer with collapsed fidelity: every rank simulated where routing is
/// drawn per call (`every_rank` kWhenAffordable), or representatives merged all the same (kNever).
engine::SimulationResult run_collapsed(const std::string& name, engine::RankCollapse::EveryRank every_rank) {
  core::DiskFileSource files;
  const auto s =
      scenario::ScenarioLoader(files).load(std::string(ZS_SOURCE_DIR) + "/scenarios/" + name + ".json");
  const auto placement = policy::make_placement_policy(s.placement_policy, nullptr);
  const auto collective = policy::make_collective_policy(s.collective_policy, s.collective_options);
  const auto where = placement->place({s.trace, s.machine, s.seed});
  const engine::RankCollapse collapse(s.trace, every_rank);
  engine::SimulationResult out;
  out.replay = engine::Replayer(s.machine, s.trace, where, *collective, {}, &collapse).run();
  return out;
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

TEST_CASE(
    "an MoE with Zipf-skewed routing: collapsed runs exact, its analytic every-rank path within 5% but tp "
    "and ep, merged representatives within 2%") {
  // Routing drawn per call (expert groups of 8) gives every rank its own expert load, so collapsed
  // fidelity merges no axis. Within exact's size limit simulate() then runs exact fidelity.
  const auto r = run_both("moe-ep-64");
  CHECK(r.collapsed.collapsed_ran_exact);
  CHECK_FALSE(r.exact.collapsed_ran_exact);
  CHECK(r.collapsed.replay.fidelity == core::Fidelity::kExact);
  CHECK(r.collapsed.replay.iteration_time.value() == r.exact.replay.iteration_time.value());
  REQUIRE(r.collapsed.replay.ranks.size() == 64);
  for (size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(r.collapsed.replay.ranks[i].exposed_comm.value() == r.exact.replay.ranks[i].exposed_comm.value());
    CHECK(r.collapsed.replay.ranks[i].idle.value() == r.exact.replay.ranks[i].idle.value());
  }

  // The replayer itself can also simulate every rank with the network analytic (simulate() does not:
  // within exact's limits exact runs, beyond them collapsed fidelity merges axes): the small groups'
  // collectives transfer by transfer as charges (ConcurrentCharges' average-rate max-min sharing
  // against SimGrid's flows). Run here on the same trace.
  // Against exact on all 64 ranks, with NCCL's step latencies: iteration +0.8% (0.7992 s against
  // 0.7931 s); ep up to 7.3% more (the all-to-alls' transfers each pay the network's 14 us step; exact
  // holds them for it before SimGrid shares the links, the charges add it to each transfer's time);
  // tp up to 20.7% (rank 1 without the latencies: 36.9 ms against 30.6 ms, its waits for slower tensor
  // peers, whose all-to-alls end at slightly different times).
  const auto analytic = run_collapsed("moe-ep-64", engine::RankCollapse::EveryRank::kWhenAffordable);
  REQUIRE(analytic.replay.ranks.size() == 64);
  CHECK(analytic.replay.every_rank_for_routing);
  CHECK(analytic.replay.collapsed_axes.empty());
  CHECK(analytic.replay.transfer_level_collectives > 0);
  for (size_t i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(analytic.replay.ranks[i].rank == i);
    // The same compute, slowed by the H100's overlap_slowdown where communication runs beside it: the
    // analytic network times that overlap slightly differently (measured within 3.2e-4).
    CHECK(analytic.replay.ranks[i].compute.value() ==
          zs::test::approx(r.exact.replay.ranks[i].compute.value()).epsilon(5e-4));
  }
  check_agreement({r.exact, analytic}, {{"tp", 0.22}, {"ep", 0.08}});

  // Beyond exact's limits (a 2,048-rank job with expert groups of 64, say) collapsed fidelity merges
  // axes all the same: each representative takes its group's largest expert load, and the dispatches
  // draw from a pool of routings per shape. Here forced on the same trace: 2 representatives.
  const auto merged = run_collapsed("moe-ep-64", engine::RankCollapse::EveryRank::kNever);
  REQUIRE(merged.replay.ranks.size() == 2);
  CHECK_FALSE(merged.replay.every_rank_for_routing);
  // Per term a representative is not exact's rank of the same number (it carries its group's hottest
  // expert load), so only the iteration is compared (docs/fidelity.md states the figures; -s prints them).
  MESSAGE("moe-ep-64 merged: ", merged.replay.iteration_time.value(), " s, exact ",
          r.exact.replay.iteration_time.value(), " s");
  CHECK(merged.replay.iteration_time.value() ==
        zs::test::approx(r.exact.replay.iteration_time.value()).epsilon(0.02));
}

TEST_CASE("a straggler in collapsed fidelity: its class runs at its speed, within 2% of exact") {
  // Collapsed fidelity gives a representative the slowest factor of the ranks it stands for. In a
  // synchronous job every rank of the class waits for the straggler at the next collective anyway, so
  // the iteration should agree; what differs is only who is idle. hgx-3d-parallel: rank 5 (stage 1) at
  // half speed; default (data parallel 8): rank 3 at 1.5x.
  for (auto job :
       {std::tuple<const char*, uint64_t, double>{"hgx-3d-parallel", 5, 2.0}, {"default", 3, 1.5}}) {
    const char* name = std::get<0>(job);
    const uint64_t rank = std::get<1>(job);
    const double factor = std::get<2>(job);
    CAPTURE(name);
    const auto healthy = run_both(name);
    const auto slow = run_both(name, rank, factor);
    const double exact = slow.exact.replay.iteration_time.value();
    CHECK(exact > 1.2 * healthy.exact.replay.iteration_time.value());  // the straggler matters
    CHECK(std::abs(slow.collapsed.replay.iteration_time.value() / exact - 1.0) < 0.02);
  }
}

TEST_CASE("collapsed agrees with exact on the default scenario") {
  check_agreement(run_both("default"));
}

TEST_CASE("one collective over a 4:1 oversubscribed fat-tree: collapsed equals exact for each algorithm") {
  // 256 units, 16 per leaf, 64 per pod at full bisection, 4:1 above; data 64 x tensor 4, so the four
  // data-parallel groups (stride 4) share every leaf and every uplink: the copies' contention matters.
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("nic", test::link_model("50GB/s", "1us"));
  nlohmann::json j = {{"kind", "topology"},
                      {"name", "ft"},
                      {"generator", "fat-tree"},
                      {"units", 256},
                      {"unit_model", "gpu"},
                      {"levels",
                       {{{"units_per_switch", 16}, {"link_model", "nic"}},
                        {{"units_per_switch", 64}, {"link_model", "nic"}, {"oversubscription", 4}},
                        {{"units_per_switch", 256}, {"link_model", "nic"}}}}};
  core::JsonObject o(j, "ft.json", "");
  const auto machine = topology::build_machine(o, models);
  for (auto kind : {workload::CollectiveKind::kAllReduce, workload::CollectiveKind::kAllGather}) {
    workload::Trace t;
    t.name = "one-collective";
    t.mesh = workload::Mesh({{"dp", 64}, {"tp", 4}});
    t.streams = {"comm"};
    t.roles = {{"rank", {{"sync", "", 0, {}, workload::CollectiveOp{kind, "dp", core::Bytes(256e6)}}}}};
    for (const char* name : {"ring", "recursive", "tree"}) {
      if (kind == workload::CollectiveKind::kAllGather && std::string(name) == "tree") continue;
      CAPTURE(name);
      CAPTURE(std::string(workload::to_string(kind)));
      auto policy = policy::make_collective_policy(name);
      const auto placement = policy::make_placement_policy("linear", nullptr);
      const auto exact = engine::simulate(machine, t, *placement, *policy, {}, engine::Fidelity::kExact);
      const auto collapsed =
          engine::simulate(machine, t, *placement, *policy, {}, engine::Fidelity::kCollapsed);
      CHECK(collapsed.replay.ranks.size() == 1);
      CHECK(collapsed.replay.iteration_time.value() ==
            zs::test::approx(exact.replay.iteration_time.value()).epsilon(0.01));
    }
  }
}
