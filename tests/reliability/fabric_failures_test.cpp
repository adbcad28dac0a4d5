// Links and optical switch ports as failure components: their instances on the machine, what a failed one
// cuts off, and the goodput arithmetic of running without it, re-patching a port, or replacing cut-off ranks.
#include <doctest/doctest.h>

#include <memory>

#include <string>
#include <vector>

#include "reliability/goodput_simulator.hpp"
#include "reliability/job_components.hpp"
#include "support/approx.hpp"
#include "support/quiet_rates.hpp"
#include "support/scripted_job.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// A rate table of one fabric component that practically never fails on its own: scripted failures only.
reliability::FailureRates quiet_fabric(const std::string& per) {
  const nlohmann::json table = test::quiet_parts({{per, per}});  // outlives the reader
  core::JsonObject o(table, "quiet.json", "");
  return reliability::FailureRates::from_json(o);
}

/// 2 racks of 2 units. Each unit hangs on its rack switch by a bundle of 2 cables (width 2); each rack
/// switch has one cable to each of two spines. With `ocs`, an optical switch of 4 ports joins the rack
/// switches instead of spine1: ports 0 and 2 cabled to rack0-switch, 1 and 3 to rack1-switch, one circuit
/// (0, 1) set up; ports 2 and 3 are free.
topology::Machine two_racks(bool ocs) {
  topology::Machine m;
  m.name = "two-racks";
  m.generator = "test";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("400GB/s", "1us"));
  m.optical_switch_models.push_back(test::optical_switch_model(4, "25ms", "400GB/s"));
  auto& t = m.topology;
  const auto spine0 = t.add_switch("spine0");
  const auto spine1 = ocs ? spine0 : t.add_switch("spine1");
  std::vector<topology::NodeId> racks;
  for (int r = 0; r < 2; ++r) {
    const auto rack = t.add_switch("rack" + std::to_string(r) + "-switch");
    racks.push_back(rack);
    t.add_link(rack, spine0, 0);
    if (!ocs) t.add_link(rack, spine1, 0);
    for (int u = 0; u < 2; ++u)
      t.add_link(t.add_unit("rack" + std::to_string(r) + "-unit" + std::to_string(u), 0), rack, 0, 2.0);
  }
  if (ocs) {
    const auto o = t.add_optical_switch("ocs0", 0, {racks[0], racks[1], racks[0], racks[1]});
    t.add_circuit(o, 0, 1, 0, true);
  }
  return m;
}

std::vector<topology::NodeId> units_of(const topology::Machine& m) {
  return {m.topology.units().begin(), m.topology.units().end()};
}

/// The share of `link` out of service among the active degradations.
double share_out(const std::vector<const reliability::Degradation*>& active, topology::LinkId link) {
  double out = 0;
  for (const auto* d : active)
    if (d->kind == reliability::Degradation::Kind::kOutage && d->id == link) out += d->factor;
  return out;
}

}  // namespace

TEST_CASE("a job's links are its cables, named by their nodes, and a cut leaves the ranks beyond it") {
  const auto machine = two_racks(false);
  const auto rates = quiet_fabric("link");
  const reliability::JobComponents job(rates, machine, units_of(machine));
  // 4 uplinks of 1 cable and 4 unit bundles of 2 cables.
  REQUIRE(job.instances(0) == 12);
  CHECK(job.instance_name(0, 0) == "rack0-switch - spine0");
  CHECK(job.instance_name(0, 2) == "rack0-unit0 - rack0-switch");
  CHECK(job.instance_name(0, 3) == "rack0-unit0 - rack0-switch #1");
  CHECK(job.fabric_share(0, 3) == 0.5);
  CHECK(job.fabric_share(0, 0) == 1.0);
  CHECK(job.find_instance(0, "rack1-unit1 - rack1-switch #1") == 11u);
  CHECK(job.units_taken(0, 0) == 0);
  CHECK(job.ranks_taken(0, 0).empty());
  // Only the links the job's traffic crosses are instances.
  std::vector<char> used(machine.topology.links().size(), 0);
  used[job.fabric_link(0, 3)] = 1;
  const reliability::JobComponents one(rates, machine, units_of(machine), {used, {}, {}, {}});
  CHECK(one.instances(0) == 2);

  const auto uplink0 = job.fabric_link(0, 0), uplink1 = job.fabric_link(0, 1);
  CHECK(job.cut_off({uplink0}, job.unit_of_rank()).ranks.empty());  // spine1 still joins the racks
  const auto rack0_gone = job.cut_off({uplink0, uplink1}, job.unit_of_rank());
  CHECK(rack0_gone.ranks == std::vector<uint64_t>{0, 1});  // a tie: the part found first is kept
  CHECK(rack0_gone.units.size() == 2);
  const auto unit3 = job.cut_off({job.fabric_link(0, 10)}, job.unit_of_rank());
  CHECK(unit3.ranks == std::vector<uint64_t>{3});
  CHECK(machine.topology.node(unit3.units.at(0)).name == "rack1-unit1");
  // Links of the same model, tiers and rank roles cost the same; here every rank is its own class.
  CHECK(job.link_class(uplink0) == job.link_class(uplink1));
  CHECK(job.link_class(job.fabric_link(0, 2)) != job.link_class(job.fabric_link(0, 4)));
}

TEST_CASE("a failed uplink: the job restarts and runs without it until the repair, as the engine says") {
  const auto machine = two_racks(false);
  const auto rates = quiet_fabric("link");
  const auto job = std::make_shared<const reliability::JobComponents>(rates, machine, units_of(machine));
  const auto& components = *job;
  auto cfg = test::scripted_job(job);
  const auto uplink = *components.find_instance(0, "rack0-switch - spine0");
  cfg.scripted = {{5000, 0, uplink, true}};
  int calls = 0;
  auto degraded = std::make_shared<zs::reliability::DegradedIterations>(
      [&](const std::vector<const reliability::Degradation*>& active) {
        ++calls;
        CHECK(share_out(active, components.fabric_link(0, uplink)) == 1.0);
        return 2.0;  // half speed without it
      });
  cfg.degraded = degraded;
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  CHECK(calls == 1);
  CHECK(run.interruptions == 1);
  CHECK(run.recompute == test::approx(5000));
  CHECK(run.detection == test::approx(60));
  CHECK(run.restart == test::approx(600));
  CHECK(run.waiting == 0);
  // Back at 5,660 s at half speed until the repair at 15,000 s.
  CHECK(run.degraded == test::approx((15000 - 5660) * 0.5));
  CHECK(run.useful == test::approx(100000 - 5000 - 660 - (15000 - 5660) * 0.5));
  REQUIRE(run.timeline.size() == 1);
  CHECK(run.timeline[0].action == "restart without the link until repaired (scripted)");
  CHECK(run.timeline[0].instance_name == "rack0-switch - spine0");
}

TEST_CASE(
    "a bundle loses a cable's share, and losing its last cable cuts the unit off and a spare replaces it") {
  const auto machine = two_racks(false);
  const auto rates = quiet_fabric("link");
  const auto job = std::make_shared<const reliability::JobComponents>(rates, machine, units_of(machine));
  const auto& components = *job;
  auto cfg = test::scripted_job(job);
  cfg.spares = 1;
  cfg.swap = zs::core::Seconds(900);
  const auto cable0 = *components.find_instance(0, "rack1-unit1 - rack1-switch");
  const auto cable1 = *components.find_instance(0, "rack1-unit1 - rack1-switch #1");
  cfg.scripted = {{5000, 0, cable0, true}, {8000, 0, cable1, true}};
  std::vector<double> shares;
  auto degraded = std::make_shared<zs::reliability::DegradedIterations>(
      [&](const std::vector<const reliability::Degradation*>& active) {
        shares.push_back(share_out(active, components.fabric_link(0, cable0)));
        return 1.25;
      });
  cfg.degraded = degraded;
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  REQUIRE(run.timeline.size() == 2);
  CHECK(run.timeline[0].action == "restart with 50% of the link until repaired (scripted)");
  CHECK(run.timeline[1].action == "cuts off 1 rank(s): swap 1 spare (scripted)");
  CHECK(shares == std::vector<double>{0.5});  // the second failure adds no outage: the spare took over
  CHECK(run.waiting == test::approx(900));
  // Degraded from 5,660 s to 8,000 s, and again from 9,560 s (back after the swap) to the repair at
  // 15,000 s: the first cable is still out.
  CHECK(run.degraded == test::approx((8000 - 5660 + 15000 - 9560) * 0.2));
}

TEST_CASE("a failed optical port is re-patched to a free port of its switch, else the circuit is out") {
  const auto machine = two_racks(true);
  const auto rates = quiet_fabric("optical-port");
  const auto job = std::make_shared<const reliability::JobComponents>(rates, machine, units_of(machine));
  const auto& components = *job;
  REQUIRE(components.instances(0) == 2);
  CHECK(components.instance_name(0, 0) == "ocs0:0");
  CHECK(components.instance_name(0, 1) == "ocs0:1");
  CHECK(components.spare_ports() == std::vector<uint32_t>{1, 1});  // port 2 for rack0, port 3 for rack1
  CHECK(components.optical_port(0, 0).reconfiguration == test::approx(0.025));
  auto cfg = test::scripted_job(job);
  // Port 0 twice (its free port is then in use, and port 0 itself is under repair), then after its repair
  // port 0 again, which has port 0 back as its free port.
  cfg.scripted = {{5000, 0, 0, true}, {6000, 0, 0, true}, {20000, 0, 0, true}, {30000, 0, 1, true}};
  auto degraded = std::make_shared<zs::reliability::DegradedIterations>(
      [&](const std::vector<const reliability::Degradation*>& active) {
        CHECK(share_out(active, components.fabric_link(0, 0)) == 1.0);
        return 4.0;  // over the electrical spine alone
      });
  cfg.degraded = degraded;
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  REQUIRE(run.timeline.size() == 4);
  CHECK(run.timeline[0].action == "re-patch to a free port (optical reconfiguration 0.025000 s) (scripted)");
  CHECK(run.timeline[1].action == "restart without the link until repaired (scripted)");
  CHECK(run.timeline[2].action.find("re-patch") == 0);
  CHECK(run.timeline[3].action.find("re-patch") == 0);
  CHECK(run.waiting == test::approx(3 * 0.025));
  CHECK(run.degraded == test::approx((16000 - 6660) * 0.75));
}
