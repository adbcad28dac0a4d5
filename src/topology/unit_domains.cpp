// Reduction switch and domain switch of a unit.
#include "topology/unit_domains.hpp"

namespace zs::topology {

std::optional<NodeId> reduction_switch(const Machine& machine, NodeId unit) {
  std::optional<NodeId> best;
  for (auto [node, link] : machine.topology.neighbours(unit)) {
    if (!machine.topology.active_at_start(link)) continue;
    const auto* model = machine.switch_model(node);
    if (model != nullptr && model->in_network_reduction() && (!best || node < *best)) best = node;
  }
  return best;
}

std::optional<NodeId> domain_switch(const Machine& machine, NodeId unit) {
  std::optional<NodeId> best;
  double best_bandwidth = 0;
  for (auto [node, link] : machine.topology.neighbours(unit)) {
    if (machine.topology.node(node).kind != NodeKind::kSwitch || !machine.topology.active_at_start(link))
      continue;
    const double bandwidth = machine.link_bandwidth(link).value();
    if (!best || bandwidth > best_bandwidth || (bandwidth == best_bandwidth && node < *best)) {
      best = node;
      best_bandwidth = bandwidth;
    }
  }
  return best;
}

}  // namespace zs::topology
