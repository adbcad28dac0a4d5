// Graph construction for the machine topology.
#include "topology/topology.hpp"

#include <stdexcept>

namespace zs::topology {

const core::ChoiceNames<NodeKind>& node_kinds() {
  static const core::ChoiceNames<NodeKind> names{
      {NodeKind::kUnit, "unit"}, {NodeKind::kSwitch, "switch"}, {NodeKind::kMemory, "memory"}};
  return names;
}

NodeId Topology::add_node(std::string name, NodeKind kind, uint32_t model) {
  if (nodes_.size() >= node_limit_)
    throw MachineTooLarge("the machine would have more than " + std::to_string(node_limit_) +
                          " nodes (units, switches and memory pools)");
  auto id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back({std::move(name), kind, model});
  adjacency_.emplace_back();
  pods_.push_back(kNoPod);
  return id;
}

NodeId Topology::add_unit(std::string name, uint32_t model) {
  NodeId id = add_node(std::move(name), NodeKind::kUnit, model);
  units_.push_back(id);
  return id;
}

NodeId Topology::add_switch(std::string name, uint32_t model) {
  return add_node(std::move(name), NodeKind::kSwitch, model);
}

NodeId Topology::add_memory(std::string name, uint32_t model) {
  NodeId id = add_node(std::move(name), NodeKind::kMemory, model);
  memories_.push_back(id);
  return id;
}

LinkId Topology::add_link(NodeId a, NodeId b, uint32_t model, double width) {
  if (a >= nodes_.size() || b >= nodes_.size() || a == b) throw std::invalid_argument("bad link endpoints");
  if (!(width > 0)) throw std::invalid_argument("link width must be > 0");
  auto id = static_cast<LinkId>(links_.size());
  links_.push_back({a, b, model, width, kNoCircuit});
  adjacency_[a].emplace_back(b, id);
  adjacency_[b].emplace_back(a, id);
  return id;
}

uint32_t Topology::add_optical_switch(std::string name, uint32_t model, std::vector<NodeId> port_nodes) {
  for (NodeId n : port_nodes)
    if (n >= nodes_.size()) throw std::invalid_argument("optical switch port cabled to no node");
  optical_switches_.push_back({std::move(name), model, std::move(port_nodes)});
  return static_cast<uint32_t>(optical_switches_.size() - 1);
}

LinkId Topology::add_circuit(uint32_t optical_switch, uint32_t port_a, uint32_t port_b, uint32_t link_model,
                             bool active_at_start, double width) {
  const auto& ocs = optical_switches_.at(optical_switch);
  if (port_a >= ocs.port_nodes.size() || port_b >= ocs.port_nodes.size())
    throw std::invalid_argument("circuit port out of range");
  if (port_a == port_b) throw std::invalid_argument("a circuit joins two different ports");
  LinkId id = add_link(ocs.port_nodes[port_a], ocs.port_nodes[port_b], link_model, width);
  links_[id].circuit = static_cast<uint32_t>(circuits_.size());
  circuits_.push_back({optical_switch, port_a, port_b, id, active_at_start});
  return id;
}

}  // namespace zs::topology
