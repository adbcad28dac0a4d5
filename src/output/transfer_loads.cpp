// Per-transfer loads of link directions, memory pools and optical switches.
#include "output/transfer_loads.hpp"

namespace zs::output {

void for_each_transfer_load(const topology::Machine& m, const engine::ReplayTimeline& record,
                            const std::function<void(const TransferLoad&)>& load) {
  using Resource = TransferLoad::Resource;
  const auto& topo = m.topology;
  std::vector<double> optical_capacity(topo.optical_switches().size(), 0.0);  // B/s
  for (const auto& c : topo.circuits())
    optical_capacity[c.optical_switch] += 2 * m.link_bandwidth(c.link).value();
  for (const auto& tr : record.link_transfers) {
    if (!(tr.end > tr.start)) continue;
    for (uint32_t k = tr.first; k < tr.first + tr.count; ++k) {
      const uint32_t d = record.directions[k];
      const auto& link = topo.links()[d / 2];
      load({Resource::kLinkDirection, d, tr.start, tr.end,
            tr.bytes / m.link_bandwidth(topology::LinkId(d / 2)).value()});
      for (auto end : {link.a, link.b})
        if (topo.node(end).kind == topology::NodeKind::kMemory)
          load({Resource::kMemoryPool, end, tr.start, tr.end,
                tr.bytes / m.memory_model(end).bandwidth().value()});
      if (link.circuit != topology::kNoCircuit) {
        const uint32_t sw = topo.circuits()[link.circuit].optical_switch;
        load({Resource::kOpticalSwitch, sw, tr.start, tr.end, tr.bytes / optical_capacity[sw]});
      }
    }
  }
}

std::string direction_name(const topology::Topology& topo, uint32_t direction) {
  const auto& link = topo.links()[direction / 2];
  const auto from = direction % 2 == 0 ? link.a : link.b, to = direction % 2 == 0 ? link.b : link.a;
  return topo.node(from).name + " -> " + topo.node(to).name;
}

}  // namespace zs::output
