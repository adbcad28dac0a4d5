// Optical circuit switch model loading.
#include "hw/optical_switch_model.hpp"

#include "hw/parameter_sources.hpp"

namespace zs::hw {

OpticalSwitchModel OpticalSwitchModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "optical-circuit-switch")
    throw json.error("kind", "expected \"optical-circuit-switch\" for an optical circuit switch model");
  OpticalSwitchModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  m.ports_ = static_cast<uint32_t>(json.integer("ports", 2, 1 << 20));
  m.reconfiguration_time_ = json.seconds("reconfiguration_time");
  m.circuit_bandwidth_ = json.byte_rate("circuit_bandwidth");
  m.latency_ = json.seconds("latency");
  m.sources_ =
      read_parameter_sources(json, {"ports", "reconfiguration_time", "circuit_bandwidth", "latency"});
  json.finish();
  return m;
}

LinkModel OpticalSwitchModel::circuit_link() const {
  return LinkModel::derived(name_ + "-circuit", circuit_bandwidth_, latency_,
                            "one circuit of optical circuit switch model \"" + name_ + "\"");
}

nlohmann::json OpticalSwitchModel::to_json() const {
  return {{"kind", "optical-circuit-switch"},
          {"name", name_},
          {"description", description_},
          {"ports", ports_},
          {"reconfiguration_time", core::to_string(reconfiguration_time_)},
          {"circuit_bandwidth", core::to_string(circuit_bandwidth_)},
          {"latency", core::to_string(latency_)},
          {"sources", sources_}};
}

}  // namespace zs::hw
