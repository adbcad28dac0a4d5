// Rack and switch failure domains from the topology, scripted failures, hot spares against a shrink,
// stragglers over the horizon and asynchronous checkpoints, each against its arithmetic.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>

#include "policy/policy_catalog.hpp"
#include "policy/recovery/shrink_recovery.hpp"
#include "reliability/goodput_simulator.hpp"
#include "reliability/job_components.hpp"
#include "reliability/re_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/power_domains.hpp"

using namespace zs;

namespace {

/// A rate table of one component, `per` (`observed` instances for rack or switch), that in practice
/// never fails on its own (one failure in 10^12 s): only scripted failures happen.
reliability::FailureRates quiet_rates(const std::string& per, const std::string& recovery = "replace") {
  nlohmann::json c = {{"name", per}, {"per", per}, {"count", 1}, {"recovery", recovery}};
  if (per == "rack" || per == "switch" || per == "power-domain") c["observed_instances"] = 1;
  nlohmann::json j = {{"kind", "failure-rates"},
                      {"name", "quiet"},
                      {"source", "test value"},
                      {"observed", {{"units", 1}, {"units_per_host", 4}, {"duration", "1000000000000s"}}},
                      {"components", {c}}};
  core::JsonObject o(j, "quiet.json", "");
  return reliability::FailureRates::from_json(o);
}

/// 2 racks of 4 units: each rack's units on its rack switch (400 GB/s links), the rack switches on a spine.
topology::Machine two_racks() {
  topology::Machine m;
  m.name = "two-racks";
  m.generator = "test";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("400GB/s", "1us"));
  auto spine = m.topology.add_switch("spine");
  for (int r = 0; r < 2; ++r) {
    auto rack = m.topology.add_switch("rack" + std::to_string(r) + "-switch");
    m.topology.add_link(rack, spine, 0);
    for (int u = 0; u < 4; ++u)
      m.topology.add_link(m.topology.add_unit("rack" + std::to_string(r) + "-unit" + std::to_string(u), 0),
                          rack, 0);
  }
  return m;
}

/// 1-second iterations, one checkpoint every `interval` s of work at `cost`, restart 600 s, detection 60 s.
reliability::GoodputConfig job(uint64_t units, double horizon) {
  reliability::GoodputConfig c;
  c.iteration = zs::core::Seconds(1);
  c.tokens_per_iteration = 1;
  c.units = units;
  c.horizon = zs::core::Seconds(horizon);
  c.checkpoint_cost = zs::core::Seconds(0);
  c.detection = zs::core::Seconds(60);
  c.restart = zs::core::Seconds(600);
  c.repair = zs::core::Seconds(10000);
  return c;
}

double lost_total(const reliability::GoodputRun& r) {
  return r.recompute + r.checkpoint + r.detection + r.restart + r.waiting + r.degraded;
}

}  // namespace

TEST_CASE("a rack failure takes down exactly the units the topology puts behind its switch") {
  const auto machine = two_racks();
  std::vector<topology::NodeId> unit_of_rank(machine.topology.units().begin(),
                                             machine.topology.units().end());
  std::reverse(unit_of_rank.begin(), unit_of_rank.end());  // rank 0 on the last unit: domains follow units
  for (const char* per : {"rack", "switch"}) {
    CAPTURE(per);
    const auto rates = quiet_rates(per);
    const reliability::JobComponents components(rates, machine, unit_of_rank);
    REQUIRE(components.instances(0) == 2);  // the spine has no units behind it: not an instance
    CHECK(components.instance_name(0, 0) == "rack0-switch");
    CHECK(components.ranks_taken(0, 0) == std::vector<uint64_t>{4, 5, 6, 7});
    CHECK(components.ranks_taken(0, 1) == std::vector<uint64_t>{0, 1, 2, 3});
    CHECK(components.units_taken(0, 1) == 4);
    CHECK(components.find_instance(0, "rack1-switch") == 1u);
    CHECK_FALSE(components.find_instance(0, "spine").has_value());
  }
  CHECK_THROWS_AS(reliability::JobComponents(quiet_rates("rack"), 8), std::invalid_argument);
}

TEST_CASE("a power domain takes down the units of the racks the topology feeds from it") {
  for (int racks_per_domain : {1, 2}) {
    CAPTURE(racks_per_domain);
    auto machine = two_racks();
    nlohmann::json j = {{"power_domains", {{"racks_per_domain", racks_per_domain}}}};
    core::ParamReader topology_file(topology::topology_file_params(),
                                    core::JsonObject(j, "two-racks.json", ""));
    topology::read_power_domains(topology_file, machine);
    std::vector<topology::NodeId> unit_of_rank(machine.topology.units().begin(),
                                               machine.topology.units().end());
    std::reverse(unit_of_rank.begin(), unit_of_rank.end());  // rank 0 on the last unit
    const auto rates = quiet_rates("power-domain");
    const reliability::JobComponents components(rates, machine, unit_of_rank);
    if (racks_per_domain == 2) {
      REQUIRE(components.instances(0) == 1);
      CHECK(components.instance_name(0, 0) == "power0");
      CHECK(components.ranks_taken(0, 0) == std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7});
    } else {
      REQUIRE(components.instances(0) == 2);
      CHECK(components.instance_name(0, 1) == "power1");
      CHECK(components.ranks_taken(0, 0) == std::vector<uint64_t>{4, 5, 6, 7});  // rack0's units
      CHECK(components.ranks_taken(0, 1) == std::vector<uint64_t>{0, 1, 2, 3});
      CHECK(components.find_instance(0, "power1") == 1u);
    }
  }
}

TEST_CASE("a scripted rack failure: 4 spares swap in after the swap time, 3 are too few and the job waits") {
  const auto machine = two_racks();
  const auto rates = quiet_rates("rack");
  std::vector<topology::NodeId> units(machine.topology.units().begin(), machine.topology.units().end());
  auto cfg = job(8, 100000);
  cfg.job = std::make_shared<const reliability::JobComponents>(rates, machine, units);
  cfg.scripted = {{5000, 0, 1, true}};
  cfg.swap = zs::core::Seconds(900);
  cfg.spares = 4;
  const auto swapped = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  REQUIRE(swapped.interruptions == 1);
  CHECK(swapped.timeline.front().instance_name == "rack1-switch");
  CHECK(swapped.timeline.front().action == "swap 4 spares (scripted)");
  // The 5000 s since the start are lost, then detection, swap and restart; full speed afterwards.
  CHECK(swapped.recompute == 5000);
  CHECK(swapped.waiting == 900);
  CHECK(swapped.degraded == 0);
  CHECK(swapped.useful == zs::test::approx(100000 - 5000 - 60 - 900 - 600).epsilon(1e-12));
  cfg.spares = 3;
  const auto waited = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  CHECK(waited.timeline.front().action == "wait for repair (scripted)");
  CHECK(waited.waiting == 10000);
}

TEST_CASE("elastic shrink: without spares the job goes on without the lost replicas' share until repaired") {
  const auto rates = quiet_rates("host");  // a host of 4 units: half of an 8-rank job
  auto cfg = job(8, 100000);
  cfg.scripted = {{5000, 0, 0, true}};  // host0: ranks 0-3
  cfg.recovery = std::make_shared<policy::ShrinkRecovery>();
  cfg.replicas = 4;
  cfg.replica_of_rank = {0, 0, 1, 1, 2, 2, 3, 3};  // 2 ranks per replica: host0 holds replicas 0 and 1
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  REQUIRE(run.interruptions == 1);
  CHECK(run.timeline.front().action == "shrink by 2 replica(s) until repaired (scripted)");
  CHECK(run.waiting == 0);
  // Back at 5000 + 60 + 600; repaired at 5000 + 10000; meanwhile 2 of 4 replicas: half the throughput.
  const double shrunk = 15000 - 5660;
  CHECK(run.degraded == zs::test::approx(shrunk / 2).epsilon(1e-12));
  CHECK(run.useful == zs::test::approx(100000 - 5000 - 660 - shrunk / 2).epsilon(1e-12));
  CHECK(run.useful + lost_total(run) == zs::test::approx(100000).epsilon(1e-12));
  // A failure that would leave no replica waits for the repair instead.
  cfg.replicas = 1;
  cfg.replica_of_rank.assign(8, 0);
  const auto whole = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  CHECK(whole.timeline.front().action == "wait for repair (scripted)");
}

TEST_CASE("a straggler for 2000 s at half speed costs 1000 s of progress, as its iteration time says") {
  const auto rates = quiet_rates("unit");
  auto cfg = job(8, 100000);
  cfg.degradations = {{10000, 2000, reliability::Degradation::Kind::kUnit, 3, 2.0, "unit3"}};
  int simulated = 0;
  auto degraded = std::make_shared<zs::reliability::DegradedIterations>(
      [&](const std::vector<const reliability::Degradation*>& active) {
        ++simulated;
        REQUIRE(active.size() == 1);
        return cfg.iteration.value() * active.front()->factor;
      });
  cfg.degraded = degraded;
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  CHECK(simulated == 1);
  CHECK(run.degraded == zs::test::approx(1000).epsilon(1e-12));
  CHECK(run.useful == zs::test::approx(99000).epsilon(1e-12));
  CHECK(run.timeline.front().component == "straggler");
}

TEST_CASE("asynchronous checkpoints block for the snapshot only, and a failure during the drain loses it") {
  const auto rates = quiet_rates("unit", "restart");
  auto cfg = job(1, 50000);
  cfg.checkpoint_cost = zs::core::Seconds(10);     // snapshot
  cfg.checkpoint_drain = zs::core::Seconds(1000);  // background write
  // Checkpoints at 3600 + 10 = 3610 s of wall time; a failure 500 s later, inside the drain.
  cfg.scripted = {{4110, 0, 0, true}};
  const auto inside = reliability::simulate_goodput_once(rates, cfg, 3600, 1, false);
  CHECK(inside.recompute == zs::test::approx(3600 + 500).epsilon(1e-12));
  cfg.scripted = {{5110, 0, 0, true}};  // after the drain: only the 1500 s since are lost
  const auto after = reliability::simulate_goodput_once(rates, cfg, 3600, 1, false);
  CHECK(after.recompute == zs::test::approx(1500).epsilon(1e-12));
  CHECK(after.checkpoint == zs::test::approx(10.0 * after.checkpoints).epsilon(1e-12));
  CHECK(after.useful + lost_total(after) == zs::test::approx(50000).epsilon(1e-12));
}

namespace {

/// Re-placement on the two racks: the job's ranks on the first `ranks` units of rack0, the other units
/// idle; a displaced rank makes the iteration `displaced` s (the callback counts its calls).
struct RePlacementJob {
  std::shared_ptr<const topology::Machine> machine = std::make_shared<const topology::Machine>(two_racks());
  std::shared_ptr<const policy::PlacementPolicy> policy = policy::make_placement_policy("linear", nullptr);
  std::shared_ptr<reliability::RePlacementSetup> shared = std::make_shared<reliability::RePlacementSetup>();
  reliability::RePlacementSetup& setup = *shared;
  int simulated = 0;

  RePlacementJob(uint64_t ranks, double displaced) {
    const auto& units = machine->topology.units();
    setup.machine = machine;
    setup.policy = policy;
    setup.unit_of_rank.assign(units.begin(), units.begin() + static_cast<std::ptrdiff_t>(ranks));
    setup.displaced_iteration = [this, displaced](uint64_t, topology::NodeId) {
      ++simulated;
      return displaced;
    };
  }
};

}  // namespace

TEST_CASE("re-placement: a failed unit's rank moves to the nearest idle unit and runs as simulated there") {
  const auto rates = quiet_rates("unit");
  RePlacementJob j(6, 2.0);  // ranks 0-3 on rack0, 4-5 on rack1; rack1-unit2 and unit3 idle
  auto cfg = job(6, 100000);
  cfg.re_placement = j.shared;
  cfg.swap = zs::core::Seconds(900);
  cfg.scripted = {{5000, 0, 2, true}};  // rank 2's unit (rack0-unit2)
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  REQUIRE(run.interruptions == 1);
  CHECK(run.timeline.front().action == "re-place 1 rank onto idle units (scripted)");
  CHECK(j.simulated == 1);
  CHECK(j.setup.iteration_by_key.size() == 1);
  const auto& [cls, hops, left_island] = j.setup.iteration_by_key.begin()->first;
  CHECK(cls == 2);
  CHECK(hops == 4);  // rack0-unit2 - rack0-switch - spine - rack1-switch - rack1-unit2
  CHECK_FALSE(left_island);
  // Lost: the 5000 s before, detection, the swap (no optical switch to reconfigure), restart; then half
  // speed to the end, since ranks do not move back.
  CHECK(run.recompute == 5000);
  CHECK(run.waiting == 900);
  const double after = 100000 - 5000 - 60 - 900 - 600;
  CHECK(run.degraded == zs::test::approx(after / 2).epsilon(1e-12));
  CHECK(run.useful == zs::test::approx(after / 2).epsilon(1e-12));
  CHECK(run.useful + lost_total(run) == zs::test::approx(100000).epsilon(1e-12));
}

TEST_CASE("re-placement: idle units behind a failed rack are down too, and too few idle units mean a wait") {
  const auto rates = quiet_rates("rack");
  {
    RePlacementJob j(2, 1.5);  // ranks on rack0-unit0 and unit1; rack0's other two units idle, rack1's 4
    reliability::RePlacer placer(j.setup, 10000);
    const reliability::JobComponents components(rates, *j.machine, j.setup.unit_of_rank);
    REQUIRE(components.instances(0) == 1);
    const auto down = components.units_down(0, 0);
    CHECK(down.size() == 4);
    const auto failed = placer.failed_ranks(components.ranks_taken(0, 0), down);
    CHECK(failed == std::vector<uint64_t>{0, 1});
    std::string action;
    CHECK(placer.replace(failed, down, 100, 900, action) == 900);
    CHECK(action == "re-place 2 ranks onto idle units");
    for (uint64_t r = 0; r < 2; ++r)  // onto rack1, not rack0's idle units (nearer, but down)
      CHECK(j.machine->topology.node(placer.unit_of_rank()[r]).name == "rack1-unit" + std::to_string(r));
    CHECK(placer.iteration(1.0) == 1.5);
    // The same rack fails again: nothing of the job runs there any more.
    CHECK(placer.failed_ranks(components.ranks_taken(0, 0), down).empty());
  }
  {
    RePlacementJob j(5, 1.5);  // rack0 full, rack1-unit0 busy: 3 idle units for 4 failed ranks
    reliability::RePlacer placer(j.setup, 10000);
    const reliability::JobComponents components(rates, *j.machine, j.setup.unit_of_rank);
    const auto down = components.units_down(0, 0);
    const auto failed = placer.failed_ranks(components.ranks_taken(0, 0), down);
    REQUIRE(failed.size() == 4);
    CHECK(placer.idle_units(100) == 3);
    std::string action;
    CHECK(placer.replace(failed, down, 100, 900, action) == 10000);
    CHECK(action == "wait for repair");
    CHECK(placer.iteration(1.0) == 1.0);  // nobody moved
    CHECK(j.simulated == 0);
  }
}

namespace {

/// The two racks with rank r on unit r (ranks 0-3 in rack0), rack failures scripted; snapshots to peer
/// memory every 3,600 s of work at 10 s, drains of `drain` s, loads of 300 s; the peer of rank r is
/// `peer(r)`.
struct PeerJob {
  topology::Machine machine = two_racks();
  reliability::FailureRates rates;
  std::shared_ptr<reliability::PeerCheckpoints> shared_peer =
      std::make_shared<reliability::PeerCheckpoints>();
  reliability::PeerCheckpoints& peer = *shared_peer;
  reliability::GoodputConfig cfg = job(8, 50000);

  PeerJob(const std::string& per, double drain, uint64_t (*peer_of)(uint64_t)) : rates(quiet_rates(per)) {
    const std::vector<topology::NodeId> unit_of_rank(machine.topology.units().begin(),
                                                     machine.topology.units().end());
    cfg.job = std::make_shared<const reliability::JobComponents>(rates, machine, unit_of_rank);
    for (uint64_t r = 0; r < 8; ++r) peer.peer_of_rank.push_back(peer_of(r));
    peer.persistent_drain = zs::core::Seconds(drain);
    peer.persistent_load = zs::core::Seconds(300);
    cfg.peer = shared_peer;
    cfg.checkpoint_cost = zs::core::Seconds(10);
    cfg.spares = 16;
    cfg.swap = zs::core::Seconds(0);
  }
  reliability::GoodputRun run() const {
    return reliability::simulate_goodput_once(rates, cfg, 3600, 1, true);
  }
};

uint64_t other_rack(uint64_t r) {
  return (r + 4) % 8;
}
uint64_t same_rack(uint64_t r) {
  return r ^ 1;
}

}  // namespace

TEST_CASE("peer-memory checkpoints survive a rack unless a rank and its peer were both in it") {
  // The first snapshot is taken at 3,610 s and drains to the persistent tier until 4,610 s; rack0 fails
  // at 4,000 s.
  PeerJob apart("rack", 1000, other_rack);
  apart.cfg.scripted = {{4000, 0, 0, true}};
  const auto a = apart.run();
  CHECK(a.persistent_restores == 0);
  CHECK(a.recompute == zs::test::approx(390).epsilon(1e-12));  // the work since the snapshot
  CHECK(a.restart == 600);
  CHECK(a.useful + lost_total(a) == zs::test::approx(50000).epsilon(1e-12));

  // Pairs in one rack: the snapshot is gone with it, and the drain had not ended: back to the start.
  PeerJob together("rack", 1000, same_rack);
  together.cfg.scripted = {{4000, 0, 0, true}};
  const auto t = together.run();
  CHECK(t.persistent_restores == 1);
  CHECK(t.recompute == zs::test::approx(390 + 3600).epsilon(1e-12));
  CHECK(t.restart == 900);  // restart and the load from the persistent tier
  REQUIRE(t.timeline.size() == 1);
  CHECK(t.timeline[0].action ==
        "swap 4 spares; restore from the persistent tier (rank 0 and its peer rank 1 lost together) "
        "(scripted)");
  CHECK(t.useful + lost_total(t) == zs::test::approx(50000).epsilon(1e-12));

  // After the drain ended, the persistent tier holds the first snapshot: only the work since is lost.
  together.cfg.scripted = {{5000, 0, 0, true}};
  const auto late = together.run();
  CHECK(late.persistent_restores == 1);
  CHECK(late.recompute == zs::test::approx(5000 - 3610).epsilon(1e-12));
}

TEST_CASE("peer-memory checkpoints: drains longer than a cycle take the newest snapshot when they end") {
  // Snapshots at 3,610, 7,220 and 10,830 s. The first drains until 8,610 s; the second starts then and
  // ends at 13,610 s, so a fallback at 12,000 s keeps only the first.
  PeerJob job("rack", 5000, same_rack);
  job.cfg.scripted = {{12000, 0, 1, true}};
  const auto r = job.run();
  CHECK(r.persistent_restores == 1);
  CHECK(r.recompute == zs::test::approx(2 * 3600 + (12000 - 10830)).epsilon(1e-12));
  CHECK(r.useful + lost_total(r) == zs::test::approx(50000).epsilon(1e-12));
}

TEST_CASE("peer-memory checkpoints: a rank's peer failing during its recovery falls back too") {
  PeerJob job("unit", 1000, same_rack);
  job.cfg.scripted = {{4000, 0, 0, true}};  // unit 0 alone: its peer, rank 1, holds its copy
  const auto alone = job.run();
  CHECK(alone.persistent_restores == 0);
  CHECK(alone.recompute == zs::test::approx(390).epsilon(1e-12));
  job.cfg.scripted = {{4000, 0, 0, true}, {4030, 0, 1, true}};  // rank 1 during the detection
  const auto both = job.run();
  CHECK(both.persistent_restores == 1);
  CHECK(both.recompute == zs::test::approx(390 + 3600).epsilon(1e-12));
  CHECK(both.restart == 900);
  job.cfg.scripted = {{4000, 0, 0, true}, {4030, 0, 2, true}};  // rank 2: neither 0's peer nor its holder
  CHECK(job.run().persistent_restores == 0);
}
