// Optical circuit switch model loading.
#include "hw/optical_switch_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::hw {

const core::ParamTable& OpticalSwitchModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kOpticalCircuitSwitch, "a reconfigurable optical circuit switch (MEMS or similar)",
      {core::Param::integer("ports", 2, 1 << 20, "ports; a circuit joins two").cite(),
       core::Param::seconds("reconfiguration_time", "time to set up a new set of circuits").cite(),
       core::Param::byte_rate("circuit_bandwidth", "bandwidth of one circuit per direction").cite(),
       core::Param::seconds("latency", "node to node through one circuit").cite()});
  return table;
}

OpticalSwitchModel OpticalSwitchModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  OpticalSwitchModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.ports_ = static_cast<uint32_t>(r.get<int64_t>("ports"));
  m.reconfiguration_time_ = r.get<core::Seconds>("reconfiguration_time");
  m.circuit_bandwidth_ = r.get<core::ByteRate>("circuit_bandwidth");
  m.latency_ = r.get<core::Seconds>("latency");
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

LinkModel OpticalSwitchModel::circuit_link() const {
  return LinkModel::derived(name_ + "-circuit", circuit_bandwidth_, latency_,
                            "one circuit of optical circuit switch model \"" + name_ + "\"");
}

}  // namespace zs::hw
