// Optical circuit switch model loading.
#include "hw/optical_switch_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

const core::ParamTable& OpticalSwitchModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kOpticalCircuitSwitch, "a reconfigurable optical circuit switch (MEMS or similar)",
      with_part_price(
          {core::Param::integer("ports", 2, 1 << 20, "ports; a circuit joins two").cite(),
           core::Param::seconds("reconfiguration_time", "time to set up a new set of circuits").cite(),
           core::Param::byte_rate("circuit_bandwidth", "bandwidth of one circuit per direction").cite(),
           core::Param::seconds("latency", "node to node through one circuit").cite(),
           core::Param::watts("power",
                              "power of one switch, held whatever its circuits (MEMS mirrors' drivers and "
                              "control)")
               .non_negative()
               .cite(),
           core::Param::watts(
               "transceiver_power",
               "power of the optical transceiver at the node end of each cabled port (the switch "
               "itself is passive to the light)")
               .non_negative()
               .cite()},
          "one switch with the transceivers of its cabled ports"));
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
  m.power_ = r.get<core::Watts>("power");
  m.transceiver_power_ = r.get<core::Watts>("transceiver_power");
  m.price_ = read_part_price(r);
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

LinkModel OpticalSwitchModel::circuit_link() const {
  return LinkModel::derived(name_ + "-circuit", circuit_bandwidth_, latency_,
                            "one circuit of optical circuit switch model \"" + name_ + "\"",
                            "the optical switch's power and transceiver_power per cabled port");
}

}  // namespace zs::hw
