// The default scenario's energy and cost against a hand calculation from its model files' figures, and an
// HGX H100 server's power at full load against a published measurement.
#include <doctest/doctest.h>

#include <cmath>

#include "core/file_source.hpp"
#include "output/energy_record.hpp"
#include "output/run_record.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/approx.hpp"
#include "support/source_file.hpp"
#include "topology/machine_power.hpp"

using namespace zs;

namespace {

constexpr double kYear = 365.25 * 86400;

}  // namespace

TEST_CASE("the default scenario's energy and cost equal the hand calculation from its files' figures") {
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/default.json"));
  const auto r = study::simulate_scenario(s);
  const auto j = output::summary_json(s, r);
  const double t = r.replay.iteration_time.value();
  double busy = 0;  // unit-seconds of computing, every rank simulated (exact fidelity)
  for (const auto& rank : r.replay.ranks) busy += rank.compute.value() * double(rank.stands_for);
  // 8 H100 SXM: idle 70 W, load 700 W, host 215 W; 8 NVLink4 links of 0 W at the unit, 50 W at the switch.
  const double units = 8 * 70 * t + (700 - 70) * busy;
  const double hosts = 8 * 215 * t;
  const double switch_ports = 8 * 50 * t;
  const double energy = units + hosts + switch_ports;
  CHECK(j["energy_by_part_j"]["units"].get<double>() == test::approx(units).epsilon(1e-12));
  CHECK(j["energy_by_part_j"]["hosts"].get<double>() == test::approx(hosts).epsilon(1e-12));
  CHECK(j["energy_by_part_j"]["switch_ports"].get<double>() == test::approx(switch_ports).epsilon(1e-12));
  CHECK(j["energy_per_iteration_j"].get<double>() == test::approx(energy).epsilon(1e-12));
  CHECK(j["peak_power_w"].get<double>() == test::approx(8 * (700 + 215 + 50.0)).epsilon(1e-12));
  // gpt3-1.3b: 128 sequences of 2,048 tokens per iteration.
  const double tokens = 128 * 2048.0;
  CHECK(j["energy_per_token_j"].get<double>() == test::approx(energy / tokens).epsilon(1e-12));
  // PUE 1.2, $0.08 per kWh; each H100 (its host share and NVLink switching included) $37,500 over 5 years.
  CHECK(j["facility_energy_per_iteration_j"].get<double>() == test::approx(1.2 * energy).epsilon(1e-12));
  const double electricity = 1.2 * energy / 3.6e6 * 0.08;
  const double capital = 8 * 37500 / (5 * kYear) * t;
  const auto& cost = j["cost"];
  CHECK(cost["electricity_per_iteration_usd"].get<double>() == test::approx(electricity).epsilon(1e-12));
  CHECK(cost["capital_per_iteration_usd"].get<double>() == test::approx(capital).epsilon(1e-12));
  CHECK(cost["per_million_tokens_usd"].get<double>() ==
        test::approx((capital + electricity) / tokens * 1e6).epsilon(1e-12));
  // 300 billion tokens.
  const double iterations = 3e11 / tokens;
  CHECK(cost["training_run"]["iterations"].get<double>() == test::approx(iterations).epsilon(1e-12));
  CHECK(cost["training_run"]["time_s"].get<double>() == test::approx(iterations * t).epsilon(1e-12));
  CHECK(cost["training_run"]["usd"].get<double>() ==
        test::approx(iterations * (capital + electricity)).epsilon(1e-12));
}

TEST_CASE("an 8-GPU HGX H100 server at full load draws within 15% of the 8.4 kW measured in training") {
  // Latif et al., "Single-Node Power Demand During AI Training: Measurements on an 8-GPU NVIDIA H100
  // System", IEEE Access 13 (2025): at most about 8.4 kW while training, against 10.2 kW rated. The server:
  // the default scenario's HGX H100 (8 units, hosts, NVSwitch ports) and its 8 NDR NICs with transceivers.
  core::DiskFileSource files;
  const auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/default.json"));
  nlohmann::json ndr_doc = nlohmann::json::parse(*files.read(test::source_file("models/ib-ndr.json")));
  core::JsonObject ndr_json(ndr_doc, "ib-ndr.json", "");
  const auto ndr = hw::LinkModel::from_json(ndr_json);
  const double server = topology::machine_power(s.machine).peak().value() + 8 * ndr.unit_port_power().value();
  CHECK(server == test::approx(7920.0));  // 8 x (700 + 215) + 8 x 50 + 8 x 25
  CHECK(std::abs(server / 8400.0 - 1) < 0.15);
  CHECK(server < 10200.0);
}

TEST_CASE("dollars display with four significant digits and a scale") {
  CHECK(output::display_usd(0.0123) == "$0.0123");
  CHECK(output::display_usd(12.5) == "$12.5");
  CHECK(output::display_usd(12345.6) == "$12.35 k");
  CHECK(output::display_usd(2.5e6) == "$2.5 M");
  CHECK(output::display_usd(7.25e9) == "$7.25 B");
}
