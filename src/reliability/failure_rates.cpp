// Failure rate tables.
#include "reliability/failure_rates.hpp"

#include "core/file_name.hpp"

#include <cmath>
#include <stdexcept>

namespace zs::reliability {

FailureRates FailureRates::from_json(core::JsonObject& o) {
  FailureRates r;
  r.file = o.file();
  if (o.string("kind") != "failure-rates") throw o.error("kind", "expected \"failure-rates\"");
  r.name = o.string("name");
  o.optional_string("description");
  o.string("source");
  auto observed = o.object("observed");
  const double units = static_cast<double>(observed.integer("units", 1, int64_t(1) << 40));
  r.units_per_host = static_cast<uint32_t>(observed.integer("units_per_host", 1, 1 << 20));
  const double hours = observed.seconds("duration", core::Bound::kPositive).value() / 3600.0;
  observed.finish();
  const auto& list = o.required("components");
  if (!list.is_array() || list.empty())
    throw o.error("components", "expected a non-empty array of components");
  for (size_t i = 0; i < list.size(); ++i) {
    auto c = o.element("components", list[i], i);
    ComponentRate rate;
    rate.name = c.string("name");
    for (const auto& earlier : r.components)
      if (earlier.name == rate.name)
        throw c.error("name", "duplicate component name " + core::quoted_for_message(rate.name) +
                                  ": each component is named once (scripted events name it)");
    rate.per = c.string("per");
    double instances = 0;
    if (rate.per == "unit")
      instances = units;
    else if (rate.per == "host")
      instances = std::ceil(units / r.units_per_host);
    else if (rate.per == "job")
      instances = 1;
    else if (rate.needs_machine())  // counted on the machine; as observed here
      instances = static_cast<double>(c.integer("observed_instances", 1, int64_t(1) << 40));
    else
      throw c.error("per",
                    "expected \"unit\", \"host\", \"rack\", \"switch\", \"power-domain\", \"link\", "
                    "\"optical-port\", \"memory-pool\" or \"job\", got \"" +
                        rate.per + "\"");
    const double count = c.number("count", 0, 1e15);
    if (!(count > 0))
      throw c.error("count",
                    "expected the number of failures observed, > 0 (a component that never failed has "
                    "no rate: leave it out)");
    rate.rate_per_hour = count / (instances * hours);
    const std::string recovery = c.string("recovery");
    if (recovery == "restart")
      rate.recovery = Recovery::kRestart;
    else if (recovery == "replace")
      rate.recovery = Recovery::kReplace;
    else
      throw c.error("recovery", "expected \"restart\" or \"replace\", got \"" + recovery + "\"");
    if (rate.fabric() && rate.recovery != Recovery::kRestart)
      throw c.error("recovery",
                    "expected \"restart\" for a component per " + rate.per +
                        ": the job restarts around the failed part (units it cuts off are replaced as the "
                        "spares allow)");
    if (rate.memory_pool() && rate.recovery != Recovery::kRestart)
      throw c.error("recovery",
                    "expected \"restart\" for a component per memory-pool: the job restarts with the "
                    "pool's ranks on other pools (or waits for the repair when none has room)");
    rate.silent = c.boolean_or("silent", false);
    rate.weibull_shape = c.number_or("weibull_shape", 1.0, 1e-3, 1e3);
    if (!(rate.weibull_shape > 0)) throw c.error("weibull_shape", "expected a shape > 0");
    rate.includes = c.optional_string("includes").value_or("");
    c.finish();
    r.components.push_back(std::move(rate));
  }
  o.finish();
  return r;
}

bool ComponentRate::topology_domain() const {
  return per == "rack" || per == "switch" || per == "power-domain";
}

bool ComponentRate::fabric() const {
  return per == "link" || per == "optical-port";
}

bool ComponentRate::memory_pool() const {
  return per == "memory-pool";
}

bool ComponentRate::needs_machine() const {
  return topology_domain() || fabric() || memory_pool();
}

uint64_t FailureRates::instances(const ComponentRate& c, uint64_t units) const {
  if (c.needs_machine())
    throw std::logic_error("the instances of a component per " + c.per + " come from the machine");
  if (c.per == "unit") return units;
  if (c.per == "host") return (units + units_per_host - 1) / units_per_host;
  return 1;
}

uint64_t FailureRates::units_taken(const ComponentRate& c, uint64_t units) const {
  if (c.needs_machine())
    throw std::logic_error("what a component per " + c.per + " takes down comes from the machine");
  if (c.per == "unit") return 1;
  if (c.per == "host") return std::min<uint64_t>(units_per_host, units);
  return units;
}

double FailureRates::job_rate_per_hour(uint64_t units) const {
  double total = 0;
  for (const auto& c : components) total += static_cast<double>(instances(c, units)) * c.rate_per_hour;
  return total;
}

}  // namespace zs::reliability
