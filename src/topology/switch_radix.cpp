// Switch port counting against the radix of the switch model.
#include "topology/switch_radix.hpp"

#include <algorithm>
#include <cmath>

namespace zs::topology {

uint32_t switch_ports_used(const Topology& topo, NodeId sw) {
  double ports = 0;
  for (auto [m, l] : topo.neighbours(sw)) ports += std::max(1.0, std::ceil(topo.link(l).width - 1e-9));
  return static_cast<uint32_t>(ports);
}

void check_switch_radix(const Machine& machine, const core::ParamReader& params, std::string_view key) {
  const auto& topo = machine.topology;
  for (NodeId n = 0; n < topo.nodes().size(); ++n) {
    const auto* model = machine.switch_model(n);
    if (model == nullptr) continue;
    uint32_t used = switch_ports_used(topo, n);
    if (used > model->radix())
      throw params.error(key, "switch \"" + topo.node(n).name + "\" needs " + std::to_string(used) +
                                  " ports, but its model \"" + model->name() + "\" has a radix of " +
                                  std::to_string(model->radix()));
  }
}

}  // namespace zs::topology
