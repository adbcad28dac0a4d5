// Capital and electricity cost of running a machine.
#include "topology/machine_cost.hpp"

#include <stdexcept>

namespace zs::topology {

const core::ChoiceNames<CapitalCost>& capital_costs() {
  static const core::ChoiceNames<CapitalCost> names(
      {{CapitalCost::kPrices, "prices"}, {CapitalCost::kRent, "rent"}, {CapitalCost::kNone, "none"}});
  return names;
}

const core::ParamTable& cost_setting_params() {
  static const core::ParamTable table(
      "cost", "what running the machine costs: facility overhead, electricity, and capital or rent",
      {core::Param::number(
           "pue", 1.0, 5.0,
           "power usage effectiveness: the facility's energy over the machine's (cooling, power "
           "distribution); left out, only the machine's own energy is reported")
           .optional(),
       core::Param::number("electricity_usd_per_kwh", 0.0, 100.0,
                           "US dollars per kWh of the facility's energy; left out, electricity is not costed")
           .optional(),
       core::Param::choice(
           "capital", capital_costs().names(),
           "\"prices\": every part's price_usd over its lifetime (each part's model must give "
           "them); \"rent\": rent_usd_per_unit_hour for every unit of the machine; \"none\"")
           .noun("capital cost"),
       core::Param::number(
           "rent_usd_per_unit_hour", 0.0, 1e6,
           "US dollars per unit-hour (a rented rate; power and facility are usually included, "
           "so leave electricity_usd_per_kwh out unless they are not); required with capital "
           "\"rent\"")
           .optional(),
       core::Param::number("training_tokens", 1.0, 1e18,
                           "tokens of the whole training run, for the run's time, energy and cost; left out, "
                           "per-iteration and per-token figures only")
           .optional(),
       core::Param::text("source",
                         "where the PUE, the electricity price and the rent come from, or "
                         "\"assumption: ...\"")});
  return table;
}

namespace {

/// Adds the price per second of `count` parts priced `price`, or throws naming `what`.
void add_price(double& total, const std::optional<hw::PartPrice>& price, double count,
               const std::string& what) {
  if (count == 0) return;
  if (!price) throw std::invalid_argument(what + " has no price_usd and lifetime");
  total += price->usd_per_second() * count;
}

void add_link_end_price(double& total, const Machine& machine, const Link& link, NodeId end) {
  const auto& model = machine.link_models.at(link.model);
  switch (machine.topology.node(end).kind) {
    case NodeKind::kUnit:
      add_price(total, model.unit_port_price(), link.width,
                "link model \"" + model.name() + "\" (unit_port_price_usd)");
      break;
    case NodeKind::kSwitch:
      add_price(total, model.switch_port_price(), link.width,
                "link model \"" + model.name() + "\" (switch_port_price_usd)");
      break;
    case NodeKind::kMemory:
      break;
  }
}

}  // namespace

double machine_capital_usd_per_second(const Machine& machine) {
  double total = 0;
  const auto& topo = machine.topology;
  for (NodeId unit : topo.units()) {
    const auto& model = machine.unit_model(unit);
    add_price(total, model.price(), 1.0, "compute-unit model \"" + model.name() + "\"");
  }
  for (const auto& link : topo.links()) {
    if (link.circuit != kNoCircuit) continue;  // a circuit's parts are priced with its optical switch
    if (topo.node(link.a).kind == NodeKind::kMemory || topo.node(link.b).kind == NodeKind::kMemory)
      continue;  // a pool's ports, and the switch ports they take, are priced with the pool
    add_link_end_price(total, machine, link, link.a);
    add_link_end_price(total, machine, link, link.b);
  }
  for (NodeId pool : topo.memories()) {
    const auto& model = machine.memory_model(pool);
    add_price(total, model.price(), 1.0, "memory-pool model \"" + model.name() + "\"");
  }
  for (const auto& ocs : topo.optical_switches()) {
    const auto& model = machine.optical_switch_models.at(ocs.model);
    add_price(total, model.price(), 1.0, "optical-circuit-switch model \"" + model.name() + "\"");
  }
  return total;
}

CostSetting read_cost_setting(core::ParamReader& r, const Machine& machine) {
  CostSetting c;
  c.pue = r.find<double>("pue");
  c.electricity_usd_per_kwh = r.find<double>("electricity_usd_per_kwh");
  c.capital = r.get_choice("capital", capital_costs());
  c.training_tokens = r.find<double>("training_tokens");
  c.source = r.get<std::string>("source");
  if (c.capital == CapitalCost::kRent) {
    c.rent_usd_per_unit_hour = r.need<double>("rent_usd_per_unit_hour", "with capital \"rent\"");
    c.capital_usd_per_second = c.rent_usd_per_unit_hour * double(machine.unit_count()) / 3600.0;
  } else if (r.has("rent_usd_per_unit_hour")) {
    throw r.error("rent_usd_per_unit_hour", "given, but capital is not \"rent\"");
  }
  if (c.capital == CapitalCost::kPrices) {
    try {
      c.capital_usd_per_second = machine_capital_usd_per_second(machine);
    } catch (const std::invalid_argument& e) {
      throw r.error("capital", std::string("\"prices\" needs every part's price: ") + e.what() +
                                   " (give them in its model file, or use capital \"rent\" or \"none\")");
    }
  }
  return c;
}

core::Joules facility_energy(const CostSetting& cost, core::Joules machine_energy) {
  return machine_energy * cost.pue.value_or(1.0);
}

RunCost run_cost(const CostSetting& cost, core::Seconds elapsed, core::Joules machine_energy) {
  RunCost out;
  out.capital_usd = cost.capital_usd_per_second * elapsed.value();
  if (cost.electricity_usd_per_kwh)
    out.electricity_usd =
        facility_energy(cost, machine_energy).value() / 3.6e6 * *cost.electricity_usd_per_kwh;
  return out;
}

}  // namespace zs::topology
