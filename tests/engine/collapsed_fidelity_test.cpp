// Collapsed fidelity agrees with exact fidelity on scenarios small enough for both.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "core/file_source.hpp"
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

TEST_CASE("collapsed fidelity simulates one rank per class of symmetric ranks") {
  const auto r = run_both("hgx-3d-parallel");     // data 2 x pipeline 2 x tensor 2
  REQUIRE(r.collapsed.replay.ranks.size() == 2);  // one per pipeline stage
  CHECK(r.collapsed.replay.ranks[0].rank == 0);
  CHECK(r.collapsed.replay.ranks[1].rank == 4);
  CHECK(r.collapsed.replay.ranks[0].stands_for == 4);
  CHECK(r.collapsed.replay.collapsed_axes == std::vector<std::string>{"dp", "tp"});
  check_agreement(r);
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
