// What running a machine costs: part prices over their lifetimes, rent, electricity with the facility's PUE.
#include <doctest/doctest.h>

#include <stdexcept>

#include "core/param_reader.hpp"
#include "support/approx.hpp"
#include "support/input_error_of.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_cost.hpp"

using namespace zs;

namespace {

constexpr double kYear = 365.25 * 86400;

/// Test units priced $10,000 over 4 years, on test links whose unit ends cost $500 and switch ports $1,000
/// over 5 years.
topology::Machine priced_machine(int units) {
  nlohmann::json unit = test::unit_model_json("1PFLOPS", 0.5, "0s");
  unit["price_usd"] = 10000;
  unit["lifetime"] = "4y";
  unit["sources"]["price_usd"] = "t";
  unit["sources"]["lifetime"] = "t";
  core::JsonObject unit_json(unit, "gpu.json", "");
  nlohmann::json link = {{"kind", "link"},
                         {"name", "priced-link"},
                         {"bandwidth", "1GB/s"},
                         {"latency", "1us"},
                         {"unit_port_power", "10W"},
                         {"switch_port_power", "20W"},
                         {"unit_port_price_usd", 500},
                         {"switch_port_price_usd", 1000},
                         {"lifetime", "5y"}};
  link["sources"] = nlohmann::json::object();
  for (const auto& [key, value] : link.items())
    if (key != "kind" && key != "name" && key != "sources") link["sources"][key] = "t";
  core::JsonObject link_json(link, "link.json", "");
  return test::single_switch_machine(units, hw::ComputeUnitModel::from_json(unit_json),
                                     hw::LinkModel::from_json(link_json));
}

topology::CostSetting read(const nlohmann::json& section, const topology::Machine& m) {
  core::ParamReader r(topology::cost_setting_params(), core::JsonObject(section, "scenario.json", "/cost"));
  auto c = topology::read_cost_setting(r, m);
  r.finish();
  return c;
}

}  // namespace

TEST_CASE("capital from prices: every part's price over its lifetime") {
  const auto m = priced_machine(4);
  const double per_second = 4 * 10000 / (4 * kYear) + 4 * (500 + 1000) / (5 * kYear);
  CHECK(topology::machine_capital_usd_per_second(m) == test::approx(per_second).epsilon(1e-12));
  const auto c = read({{"capital", "prices"}, {"source", "t"}}, m);
  CHECK(c.capital_usd_per_second == test::approx(per_second).epsilon(1e-12));
  const auto cost = topology::run_cost(c, core::Seconds(3600), core::Joules(3.6e6));
  CHECK(cost.capital_usd == test::approx(per_second * 3600).epsilon(1e-12));
  CHECK(cost.electricity_usd == 0);  // no price per kWh given
}

TEST_CASE("electricity: the machine's energy times the PUE at the price per kWh") {
  const auto m = priced_machine(2);
  const auto c =
      read({{"capital", "none"}, {"pue", 1.25}, {"electricity_usd_per_kwh", 0.1}, {"source", "t"}}, m);
  CHECK(topology::facility_energy(c, core::Joules(3.6e6)).value() == test::approx(4.5e6));
  const auto cost = topology::run_cost(c, core::Seconds(3600), core::Joules(3.6e6));  // 1 kWh of the machine
  CHECK(cost.capital_usd == 0);
  CHECK(cost.electricity_usd == test::approx(1.25 * 0.1).epsilon(1e-12));
}

TEST_CASE("rent: the rate per unit-hour for every unit of the machine") {
  const auto m = priced_machine(8);
  const auto c = read({{"capital", "rent"}, {"rent_usd_per_unit_hour", 2.5}, {"source", "t"}}, m);
  CHECK(topology::run_cost(c, core::Seconds(7200), core::Joules(0)).capital_usd == test::approx(8 * 2.5 * 2));
}

TEST_CASE("a cost section that cannot be honoured is an input error naming the key") {
  const auto unpriced = test::single_switch_machine(2, test::unit_model("1PFLOPS", 0.5, "0s"),
                                                    test::link_model("1GB/s", "1us"));
  CHECK(test::input_error_of([&] {
          read({{"capital", "prices"}, {"source", "t"}}, unpriced);
        }) ==
        "scenario.json: /cost/capital: \"prices\" needs every part's price: compute-unit model \"test-gpu\" "
        "has no "
        "price_usd and lifetime (give them in its model file, or use capital \"rent\" or \"none\")");
  CHECK(test::input_error_of([&] {
          read({{"capital", "rent"}, {"source", "t"}}, unpriced);
        }).find("/cost: missing key \"rent_usd_per_unit_hour\" with capital \"rent\"") != std::string::npos);
  CHECK(test::input_error_of([&] {
          read({{"capital", "none"}, {"rent_usd_per_unit_hour", 1}, {"source", "t"}}, unpriced);
        }).find("given, but capital is not \"rent\"") != std::string::npos);
  CHECK(test::input_error_of([&] {
          read({{"capital", "lease"}, {"source", "t"}}, unpriced);
        }).find("unknown capital cost \"lease\"") != std::string::npos);
}
