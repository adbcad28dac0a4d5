// What running a machine costs: its parts' capital amortized over their lives, or a rented rate, and
// the electricity its energy takes with the facility's overhead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/choice_names.hpp"
#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// Where the cost of owning the machine comes from.
enum class CapitalCost : uint8_t {
  kPrices,  ///< every part's price_usd over its lifetime (a part without a price is an input error)
  kRent,    ///< a rented rate per unit-hour (a cloud price: power and facility usually included)
  kNone,    ///< no capital cost: electricity only
};

/// The names a scenario's cost section gives capital costs: "prices", "rent", "none".
const core::ChoiceNames<CapitalCost>& capital_costs();

/// A scenario's cost section: how the facility and money enter the results.
struct CostSetting {
  /// Power usage effectiveness: the facility's energy over the machine's (cooling, power distribution);
  /// nothing: not given, and only the machine's energy is reported.
  std::optional<double> pue;
  /// US dollars per kWh of the facility's energy (the machine's times pue); nothing: electricity not costed.
  std::optional<double> electricity_usd_per_kwh;
  CapitalCost capital = CapitalCost::kNone;
  double rent_usd_per_unit_hour = 0;  ///< kRent: US dollars per unit per hour
  /// Tokens of the whole training run; nothing: no per-run figures.
  std::optional<double> training_tokens;
  std::string source;  ///< where the prices and the PUE come from, or "assumption: ..."
  /// US dollars per second of owning or renting the whole machine (from prices or rent; 0 for kNone).
  double capital_usd_per_second = 0;
  nlohmann::json resolved;  ///< the section as resolved (config.json)
};

/// The keys of a scenario's cost section.
const core::ParamTable& cost_setting_params();

/// Reads a scenario's cost section for `machine`. With capital "prices", a part whose model has no price
/// is an input error naming the model.
CostSetting read_cost_setting(core::ParamReader& section, const Machine& machine);

/// The capital cost of owning `machine`, US dollars per second: every unit's, link end's, memory pool's
/// and optical switch's price over its lifetime. Throws std::invalid_argument naming the first model of
/// a part that has no price.
double machine_capital_usd_per_second(const Machine& machine);

/// What one stretch of running costs, US dollars.
struct RunCost {
  double capital_usd = 0;      ///< amortized prices or rent over the stretch
  double electricity_usd = 0;  ///< the facility's energy (the machine's times pue) at the price per kWh
  double total_usd() const { return capital_usd + electricity_usd; }
};

/// The cost of running for `elapsed` while the machine takes `machine_energy` (IT energy, J).
RunCost run_cost(const CostSetting& cost, core::Seconds elapsed, core::Joules machine_energy);

/// The facility's energy: the machine's times pue, or the machine's where no pue is given, J.
core::Joules facility_energy(const CostSetting& cost, core::Joules machine_energy);

}  // namespace zs::topology
