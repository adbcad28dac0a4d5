// Switch model loading.
#include "hw/switch_model.hpp"

#include "hw/parameter_sources.hpp"

namespace zs::hw {

SwitchModel SwitchModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "switch") throw json.error("kind", "expected \"switch\" for a switch model");
  SwitchModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  m.radix_ = static_cast<uint32_t>(json.integer("radix", 2, 1 << 20));
  m.port_bandwidth_ = json.byte_rate("port_bandwidth");
  m.latency_ = json.seconds("latency");
  if (!json.has("in_network_reduction"))
    throw json.error("in_network_reduction", "missing; expected true or false (SHARP/NVLS-style reduction)");
  m.in_network_reduction_ = json.boolean_or("in_network_reduction", false);
  std::vector<std::string> params{"radix", "port_bandwidth", "latency", "in_network_reduction"};
  if (m.in_network_reduction_) {
    if (!json.has("reduction_efficiency"))
      throw json.error(
          "reduction_efficiency",
          "missing; a switch that reduces in the network needs the fraction of port bandwidth at "
          "which it absorbs data to reduce (0 to 1)");
    m.reduction_efficiency_ = json.number("reduction_efficiency", 0.01, 1.0);
    params.emplace_back("reduction_efficiency");
  }
  m.sources_ = read_parameter_sources(json, params);
  json.finish();
  return m;
}

nlohmann::json SwitchModel::to_json() const {
  return {{"kind", "switch"},
          {"name", name_},
          {"description", description_},
          {"radix", radix_},
          {"port_bandwidth", core::to_string(port_bandwidth_)},
          {"latency", core::to_string(latency_)},
          {"in_network_reduction", in_network_reduction_},
          {"reduction_efficiency", reduction_efficiency_},
          {"sources", sources_}};
}

}  // namespace zs::hw
