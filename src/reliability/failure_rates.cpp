// Failure rate tables.
#include "reliability/failure_rates.hpp"

#include "core/file_kind.hpp"
#include "core/file_name.hpp"
#include "core/param_reader.hpp"

#include <cmath>
#include <stdexcept>

namespace zs::reliability {

namespace {

const core::ParamTable& observed_params() {
  static const core::ParamTable table(
      "failure-rates.observed", "the fleet and the time over which the failures were counted",
      {core::Param::integer("units", 1, int64_t(1) << 40, "compute units observed"),
       core::Param::integer("units_per_host", 1, 1 << 20, "compute units per host"),
       core::Param::seconds("duration", "how long they were observed").positive()});
  return table;
}

const core::ParamTable& component_params() {
  static const core::ParamTable table(
      "failure-rates.component", "one kind of failing part and how often it failed",
      {core::Param::text("name", "the component's name, unique (scripted events name it)"),
       core::Param::choice("per", failure_scope_names(), "what one instance is"),
       core::Param::integer("observed_instances", 1, int64_t(1) << 40,
                            "instances observed, for a component counted on the machine (rack, switch, "
                            "power-domain, link, optical-port, memory-pool)")
           .optional(),
       core::Param::number("count", 0, 1e15, "failures observed, > 0"),
       core::Param::choice(
           "recovery",
           {std::string(to_string(Recovery::kRestart)), std::string(to_string(Recovery::kReplace))},
           "restart: the job restarts on the same parts; replace: a spare takes the failed "
           "unit's place; fabric and pools restart"),
       core::Param::boolean("silent", "whether the failure goes unnoticed until detected").or_default(false),
       core::Param::number("weibull_shape", 1e-3, 1e3,
                           "shape of the Weibull time between failures (1: "
                           "exponential)")
           .or_default(1.0),
       core::Param::text("includes", "another component whose failures this one's count includes")
           .optional()});
  return table;
}

/// The "observed_instances" of a component counted on the machine (required for those).
double observed_instances(core::ParamReader& component, FailureScope per) {
  if (!component.has("observed_instances"))
    throw component.error(
        "missing required key \"observed_instances\" (instances observed, for a component "
        "per " +
        std::string(to_string(per)) + ")");
  return static_cast<double>(*component.find<int64_t>("observed_instances"));
}

}  // namespace

std::string_view to_string(Recovery recovery) {
  return recovery == Recovery::kReplace ? "replace" : "restart";
}

std::optional<Recovery> parse_recovery(std::string_view name) {
  for (auto r : {Recovery::kRestart, Recovery::kReplace})
    if (to_string(r) == name) return r;
  return std::nullopt;
}

const core::ParamTable& FailureRates::params() {
  static const core::ParamTable table(
      "failure-rates", "a failure-rate table: failures counted on an observed fleet, per kind of component",
      {core::Param::file_kind(core::FileKind::kFailureRates, "a failure-rates file"),
       core::Param::text("name", "the table's name"),
       core::Param::text("description", "one line: what was observed").optional(),
       core::Param::text("source", "the published source of the counts"),
       core::Param::object("observed", observed_params(), "the observed fleet"),
       core::Param::list("components", component_params(), "the failing components, at least one")});
  return table;
}

FailureRates FailureRates::from_json(core::JsonObject& object) {
  core::ParamReader o(params(), object);
  FailureRates r;
  r.file = o.file();
  o.get<std::string>("kind");  // the table's constant
  r.name = o.get<std::string>("name");
  o.find<std::string>("description");
  o.get<std::string>("source");
  auto observed = o.part("observed");
  const double units = static_cast<double>(observed.get<int64_t>("units"));
  r.units_per_host = static_cast<uint32_t>(observed.get<int64_t>("units_per_host"));
  const double hours = observed.get<core::Seconds>("duration").value() / 3600.0;
  observed.finish();
  auto components = o.parts("components");
  if (components.empty()) throw o.error("components", "expected a non-empty array of components");
  for (auto& c : components) {
    ComponentRate rate;
    rate.name = c.get<std::string>("name");
    for (const auto& earlier : r.components)
      if (earlier.name == rate.name)
        throw c.error("name", "duplicate component name " + core::quoted_for_message(rate.name) +
                                  ": each component is named once (scripted events name it)");
    rate.per = *parse_failure_scope(c.get<std::string>("per"));  // the table's choice: one of them
    double instances = 0;
    if (rate.per == FailureScope::kUnit)
      instances = units;
    else if (rate.per == FailureScope::kHost)
      instances = std::ceil(units / r.units_per_host);
    else if (rate.per == FailureScope::kJob)
      instances = 1;
    else  // counted on the machine; as observed here
      instances = observed_instances(c, rate.per);
    const double count = c.get<double>("count");
    if (!(count > 0))
      throw c.error("count",
                    "expected the number of failures observed, > 0 (a component that never failed has "
                    "no rate: leave it out)");
    rate.rate_per_hour = count / (instances * hours);
    rate.recovery = *parse_recovery(c.get<std::string>("recovery"));  // the table's choice: one of them
    if (rate.fabric() && rate.recovery != Recovery::kRestart)
      throw c.error("recovery",
                    "expected \"restart\" for a component per " + std::string(to_string(rate.per)) +
                        ": the job restarts around the failed part (units it cuts off are replaced as the "
                        "spares allow)");
    if (rate.memory_pool() && rate.recovery != Recovery::kRestart)
      throw c.error("recovery",
                    "expected \"restart\" for a component per memory-pool: the job restarts with the "
                    "pool's ranks on other pools (or waits for the repair when none has room)");
    rate.silent = c.get<bool>("silent");
    rate.weibull_shape = c.get<double>("weibull_shape");
    if (!(rate.weibull_shape > 0)) throw c.error("weibull_shape", "expected a shape > 0");
    rate.includes = c.find<std::string>("includes").value_or("");
    c.finish();
    r.components.push_back(std::move(rate));
  }
  o.finish();
  return r;
}

bool ComponentRate::topology_domain() const {
  return per == FailureScope::kRack || per == FailureScope::kSwitch || per == FailureScope::kPowerDomain;
}

bool ComponentRate::fabric() const {
  return per == FailureScope::kLink || per == FailureScope::kOpticalPort;
}

bool ComponentRate::memory_pool() const {
  return per == FailureScope::kMemoryPool;
}

bool ComponentRate::needs_machine() const {
  return topology_domain() || fabric() || memory_pool();
}

uint64_t FailureRates::instances(const ComponentRate& c, uint64_t units) const {
  if (c.needs_machine())
    throw std::logic_error("the instances of a component per " + std::string(to_string(c.per)) +
                           " come from the machine");
  if (c.per == FailureScope::kUnit) return units;
  if (c.per == FailureScope::kHost) return (units + units_per_host - 1) / units_per_host;
  return 1;
}

uint64_t FailureRates::units_taken(const ComponentRate& c, uint64_t units) const {
  if (c.needs_machine())
    throw std::logic_error("what a component per " + std::string(to_string(c.per)) +
                           " takes down comes from the machine");
  if (c.per == FailureScope::kUnit) return 1;
  if (c.per == FailureScope::kHost) return std::min<uint64_t>(units_per_host, units);
  return units;
}

double FailureRates::job_rate_per_hour(uint64_t units) const {
  double total = 0;
  for (const auto& c : components) total += static_cast<double>(instances(c, units)) * c.rate_per_hour;
  return total;
}

}  // namespace zs::reliability
