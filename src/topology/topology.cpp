// Graph construction for the machine topology.
#include "topology/topology.hpp"

#include <stdexcept>

namespace zs::topology {

NodeId Topology::add_node(std::string name, NodeKind kind, uint32_t model) {
  auto id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back({std::move(name), kind, model});
  adjacency_.emplace_back();
  return id;
}

NodeId Topology::add_unit(std::string name, uint32_t model) {
  NodeId id = add_node(std::move(name), NodeKind::kUnit, model);
  units_.push_back(id);
  return id;
}

NodeId Topology::add_switch(std::string name) {
  return add_node(std::move(name), NodeKind::kSwitch, 0);
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
  links_.push_back({a, b, model, width});
  adjacency_[a].emplace_back(b, id);
  adjacency_[b].emplace_back(a, id);
  return id;
}

}  // namespace zs::topology
