// Test helper: the same machine with its units listed in another order (as a cluster's host list may).
#pragma once

#include <vector>

#include "topology/machine.hpp"

namespace zs::test {

/// A copy of `m` whose topology creates the units in `order` (node ids of m's units), then every other
/// node, every link and every optical switch with its circuits as m has them.
inline topology::Machine with_units_listed(const topology::Machine& m,
                                           const std::vector<topology::NodeId>& order) {
  topology::Machine out;
  out.name = m.name;
  out.generator = m.generator;
  out.unit_models = m.unit_models;
  out.link_models = m.link_models;
  out.memory_models = m.memory_models;
  out.switch_models = m.switch_models;
  out.optical_switch_models = m.optical_switch_models;
  out.step_latency = m.step_latency;
  std::vector<topology::NodeId> id(m.topology.nodes().size());
  for (auto u : order) id[u] = out.topology.add_unit(m.topology.node(u).name, m.topology.node(u).model);
  for (topology::NodeId n = 0; n < m.topology.nodes().size(); ++n) {
    const auto& node = m.topology.node(n);
    if (node.kind == topology::NodeKind::kSwitch) id[n] = out.topology.add_switch(node.name, node.model);
    if (node.kind == topology::NodeKind::kMemory) id[n] = out.topology.add_memory(node.name, node.model);
  }
  for (const auto& l : m.topology.links())
    if (l.circuit == topology::kNoCircuit) out.topology.add_link(id[l.a], id[l.b], l.model, l.width);
  for (const auto& os : m.topology.optical_switches()) {
    std::vector<topology::NodeId> ports;
    for (auto n : os.port_nodes) ports.push_back(id[n]);
    out.topology.add_optical_switch(os.name, os.model, std::move(ports));
  }
  for (const auto& c : m.topology.circuits()) {
    const auto& l = m.topology.link(c.link);
    out.topology.add_circuit(c.optical_switch, c.port_a, c.port_b, l.model, c.active_at_start, l.width);
  }
  return out;
}

}  // namespace zs::test
