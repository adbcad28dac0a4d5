// Switch model loading.
#include "hw/switch_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::hw {

const core::ParamTable& SwitchModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kSwitch, "an electrical packet switch (NVSwitch, InfiniBand, Ethernet)",
      {core::Param::integer("radix", 2, 1 << 20, "ports").cite(),
       core::Param::byte_rate("port_bandwidth", "bandwidth of one port per direction").cite(),
       core::Param::seconds("latency", "port to port").cite(),
       core::Param::boolean("in_network_reduction",
                            "whether the switch reduces data in the network (SHARP, NVLS)")
           .cite(),
       core::Param::number("reduction_efficiency", 0.01, 1.0,
                           "fraction of port bandwidth at which the switch absorbs data to reduce; required "
                           "when in_network_reduction is true")
           .optional()
           .cite()});
  return table;
}

SwitchModel SwitchModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  SwitchModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.radix_ = static_cast<uint32_t>(r.get<int64_t>("radix"));
  m.port_bandwidth_ = r.get<core::ByteRate>("port_bandwidth");
  m.latency_ = r.get<core::Seconds>("latency");
  if (!r.has("in_network_reduction"))
    throw r.error("in_network_reduction", "missing; expected true or false (SHARP/NVLS-style reduction)");
  m.in_network_reduction_ = r.get<bool>("in_network_reduction");
  if (m.in_network_reduction_) {
    if (!r.has("reduction_efficiency"))
      throw r.error("reduction_efficiency",
                    "missing; a switch that reduces in the network needs the fraction of port bandwidth at "
                    "which it absorbs data to reduce (0 to 1)");
    m.reduction_efficiency_ = *r.find<double>("reduction_efficiency");
  }
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

}  // namespace zs::hw
