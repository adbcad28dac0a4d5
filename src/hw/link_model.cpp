// Link model loading.
#include "hw/link_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::hw {

const core::ParamTable& LinkModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kLink, "a full-duplex link type (NVLink, PCIe, InfiniBand, Ethernet, optical)",
      {core::Param::byte_rate("bandwidth", "line rate per direction").cite(),
       core::Param::seconds("latency", "one traversal, end to end").cite(),
       core::Param::number("efficiency", 0.01, 1.0,
                           "achieved fraction of the bandwidth for bulk data (protocol and packet overhead)")
           .or_default(1.0)
           .cite(),
       core::Param::seconds("step_latency",
                            "the least time one step of a collective library (a chunk handed from one rank "
                            "to the next: flag synchronization, network proxy) takes over this link, wire "
                            "included (NCCL's per-hop latency under its Simple protocol); charged unless "
                            "the scenario's collective policy sets step_latency false: a transfer pays "
                            "at least the largest on its route, a step of concurrent transfers at least "
                            "their mean, a pipelined schedule on its first chunk only; left out, 0")
           .or_default("0s")
           .cite(),
       core::Param::seconds("step_latency_ll128",
                            "step_latency under a collective library's LL128 protocol (payload at 0.92 of "
                            "the bandwidth); left out, the link's step_latency")
           .optional()
           .positive()
           .cite(),
       core::Param::seconds("step_latency_ll",
                            "step_latency under a collective library's LL protocol (payload at 1/4 of the "
                            "bandwidth); left out, the link's step_latency")
           .optional()
           .positive()
           .cite(),
       core::Param::seconds("tree_step_latency",
                            "step_latency of a step of the collective library's tree algorithm under its "
                            "Simple protocol (NCCL counts its tree's steps apart from its ring's); left out, "
                            "the link's step_latency")
           .optional()
           .positive()
           .cite(),
       core::Param::seconds("tree_step_latency_ll128",
                            "tree_step_latency under the LL128 protocol; left out, step_latency_ll128")
           .optional()
           .positive()
           .cite(),
       core::Param::seconds("tree_step_latency_ll",
                            "tree_step_latency under the LL protocol; left out, step_latency_ll")
           .optional()
           .positive()
           .cite(),
       core::Param::watts("unit_port_power",
                          "power of what one link needs at a compute unit's end beyond the unit's own power "
                          "(its NIC and transceiver); 0 where the port is part of the unit and its power "
                          "counted in load_power (NVLink, ICI)")
           .non_negative()
           .cite(),
       core::Param::watts("switch_port_power",
                          "power of one switch port of this link type with its transceiver: the switch's "
                          "power over its ports (a switch's ASIC, fans and power conversion are counted per "
                          "port, so a switch of any radix costs what its links use)")
           .non_negative()
           .cite(),
       core::Param::number("unit_port_price_usd", 0.0, 1e9,
                           "price of what one link needs at a unit's end (NIC share, transceiver, half the "
                           "cable), US dollars; left out, unpriced")
           .optional()
           .cite(),
       core::Param::number("switch_port_price_usd", 0.0, 1e9,
                           "price of one switch port of this type (the switch's price over its ports, the "
                           "transceiver, half the cable), US dollars; left out, unpriced")
           .optional()
           .cite(),
       core::Param::seconds("lifetime",
                            "service life over which the port prices are amortized (\"5y\"); "
                            "required with them")
           .optional()
           .cite()});
  return table;
}

LinkModel LinkModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  LinkModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.bandwidth_ = r.get<core::ByteRate>("bandwidth");
  m.latency_ = r.get<core::Seconds>("latency");
  m.efficiency_ = r.get<double>("efficiency");
  m.step_latency_ = r.get<core::Seconds>("step_latency");
  m.step_latency_ll128_ = r.find<core::Seconds>("step_latency_ll128").value_or(core::Seconds(0.0));
  m.step_latency_ll_ = r.find<core::Seconds>("step_latency_ll").value_or(core::Seconds(0.0));
  m.tree_step_latency_ = {r.find<core::Seconds>("tree_step_latency").value_or(core::Seconds(0.0)),
                          r.find<core::Seconds>("tree_step_latency_ll128").value_or(core::Seconds(0.0)),
                          r.find<core::Seconds>("tree_step_latency_ll").value_or(core::Seconds(0.0))};
  m.unit_port_power_ = r.get<core::Watts>("unit_port_power");
  m.switch_port_power_ = r.get<core::Watts>("switch_port_power");
  m.read_port_prices(r);
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

void LinkModel::read_port_prices(core::ParamReader& r) {
  const bool unit_priced = r.has("unit_port_price_usd");
  const bool switch_priced = r.has("switch_port_price_usd");
  if (!unit_priced && !switch_priced) {
    if (r.has("lifetime")) throw r.error("lifetime", "given without the port prices it amortizes");
    return;
  }
  if (unit_priced != switch_priced)
    throw r.error(unit_priced ? "switch_port_price_usd" : "unit_port_price_usd",
                  "missing; a priced link type gives the price of both its unit and its switch ports");
  if (!r.has("lifetime"))
    throw r.error("lifetime", "missing; priced ports need the service life they are amortized over (\"5y\")");
  const auto lifetime = *r.find<core::Seconds>("lifetime");
  unit_port_price_ = PartPrice{*r.find<double>("unit_port_price_usd"), lifetime};
  switch_port_price_ = PartPrice{*r.find<double>("switch_port_price_usd"), lifetime};
}

core::Seconds LinkModel::step_latency(CollectiveProtocol protocol, LibraryAlgorithm algorithm) const {
  if (algorithm == LibraryAlgorithm::kTree) {
    const core::Seconds tree = tree_step_latency_[size_t(protocol)];
    if (tree.value() > 0) return tree;
  }
  const core::Seconds own = protocol == CollectiveProtocol::kLl128 ? step_latency_ll128_
                            : protocol == CollectiveProtocol::kLl  ? step_latency_ll_
                                                                   : step_latency_;
  return own.value() > 0 ? own : step_latency_;
}

LinkModel LinkModel::derived(std::string name, core::ByteRate bandwidth, core::Seconds latency,
                             std::string origin, std::string ports_counted_by) {
  const std::string ports = "counted by " + ports_counted_by;
  const nlohmann::json doc = {{"kind", "link"},
                              {"name", std::move(name)},
                              {"description", "derived: " + origin},
                              {"bandwidth", core::to_string(bandwidth)},
                              {"latency", core::to_string(latency)},
                              {"unit_port_power", "0W"},
                              {"switch_port_power", "0W"},
                              {"sources",
                               {{"bandwidth", origin},
                                {"latency", origin},
                                {"unit_port_power", ports},
                                {"switch_port_power", ports}}}};
  core::JsonObject json(doc, "derived link", "");
  return from_json(json);
}

}  // namespace zs::hw
