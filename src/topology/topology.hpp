// The machine's graph: compute units and switches joined by full-duplex links.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zs::topology {

using NodeId = uint32_t;
using LinkId = uint32_t;

enum class NodeKind : uint8_t { kUnit, kSwitch, kMemory };

struct Node {
  std::string name;
  NodeKind kind = NodeKind::kUnit;
  uint32_t model = 0;  ///< index of the unit or memory-pool model in the Machine (not for switches)
};

/// A full-duplex link between nodes a and b. Its bandwidth in each direction is the model's times
/// `width`: width 18 stands for 18 parallel links, a fractional width for the aggregate uplinks of an
/// oversubscribed switch tier.
struct Link {
  NodeId a = 0;
  NodeId b = 0;
  uint32_t model = 0;  ///< index of the link model in the Machine
  double width = 1.0;  ///< bandwidth multiplier, > 0
};

/// An undirected multigraph of units and switches. Units keep their creation order, which is the
/// "topology order" that placement policies see.
class Topology {
 public:
  NodeId add_unit(std::string name, uint32_t model);
  NodeId add_switch(std::string name);
  /// A memory pool node; connect it to the fabric with attach_memory_pool (topology/memory_pools.hpp).
  NodeId add_memory(std::string name, uint32_t model);
  LinkId add_link(NodeId a, NodeId b, uint32_t model, double width = 1.0);

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  const Node& node(NodeId n) const { return nodes_.at(n); }
  const Link& link(LinkId l) const { return links_.at(l); }
  /// Unit node ids in topology order.
  const std::vector<NodeId>& units() const { return units_; }
  /// Memory pool node ids in creation order.
  const std::vector<NodeId>& memories() const { return memories_; }
  /// (neighbour, link) pairs of a node, in the order the links were added.
  const std::vector<std::pair<NodeId, LinkId>>& neighbours(NodeId n) const { return adjacency_.at(n); }

 private:
  NodeId add_node(std::string name, NodeKind kind, uint32_t model);

  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> units_;
  std::vector<NodeId> memories_;
  std::vector<std::vector<std::pair<NodeId, LinkId>>> adjacency_;
};

}  // namespace zs::topology
