// The machine's graph: compute units and switches joined by full-duplex links.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/choice_names.hpp"

namespace zs::topology {

using NodeId = uint32_t;
using LinkId = uint32_t;

/// Node::model of a switch that has no switch model (its hops cost only the links' latency).
inline constexpr uint32_t kNoModel = 0xffffffffu;
/// Link::circuit of a link that is not an optical circuit.
inline constexpr uint32_t kNoCircuit = 0xffffffffu;
/// Topology::pod of a node that belongs to no pod (every node of a machine not built of pods, and the
/// data-centre network's switches of one that is).
inline constexpr uint32_t kNoPod = 0xffffffffu;

enum class NodeKind : uint8_t { kUnit, kSwitch, kMemory };

/// The names graph topology files and exported graphs give node kinds: "unit", "switch", "memory".
const core::ChoiceNames<NodeKind>& node_kinds();

struct Node {
  std::string name;
  NodeKind kind = NodeKind::kUnit;
  uint32_t model = 0;  ///< index of the unit, memory-pool or switch model in the Machine (kNoModel: none)
};

/// A full-duplex link between nodes a and b. Its bandwidth in each direction is the model's times
/// `width`: width 18 stands for 18 parallel links, a fractional width for the aggregate uplinks of an
/// oversubscribed switch tier.
struct Link {
  NodeId a = 0;
  NodeId b = 0;
  uint32_t model = 0;             ///< index of the link model in the Machine
  double width = 1.0;             ///< bandwidth multiplier, > 0
  uint32_t circuit = kNoCircuit;  ///< index in Topology::circuits() when the link is an optical circuit
};

/// An optical circuit switch: port p is cabled to node port_nodes[p]. It forwards nothing itself;
/// its circuits are links between the nodes on their two ports.
struct OpticalSwitch {
  std::string name;
  uint32_t model = 0;  ///< index of the optical switch model in the Machine
  std::vector<NodeId> port_nodes;
};

/// A circuit that an optical switch can set up between two of its ports, realised as one link.
struct Circuit {
  uint32_t optical_switch = 0;
  uint32_t port_a = 0, port_b = 0;
  LinkId link = 0;
  bool active_at_start = true;  ///< set up when the run starts (else only after a reconfiguration)
};

/// The most nodes (units, switches and memory pools) a machine may have unless its builder says otherwise:
/// twice the 2^24 units the generators accept, so that only their switches and pools come on top.
inline constexpr uint64_t kMaxMachineNodes = uint64_t(1) << 25;

/// Adding a node past the topology's node limit.
class MachineTooLarge : public std::length_error {
 public:
  using std::length_error::length_error;
};

/// An undirected multigraph of units and switches. Units keep their creation order, which is the
/// "topology order" that placement policies see.
class Topology {
 public:
  /// Nodes past `limit` are refused with MachineTooLarge (kMaxMachineNodes by default), so that the work
  /// of building a machine is bounded whatever its parameters ask for.
  void set_node_limit(uint64_t limit) { node_limit_ = limit; }
  uint64_t node_limit() const { return node_limit_; }

  NodeId add_unit(std::string name, uint32_t model);
  NodeId add_switch(std::string name, uint32_t model = kNoModel);
  /// A memory pool node; connect it to the fabric with attach_memory_pool (topology/memory_pools.hpp).
  NodeId add_memory(std::string name, uint32_t model);
  LinkId add_link(NodeId a, NodeId b, uint32_t model, double width = 1.0);
  uint32_t add_optical_switch(std::string name, uint32_t model, std::vector<NodeId> port_nodes);
  /// A circuit between two ports of an optical switch, as a link of the given model between the
  /// nodes on those ports. Throws std::invalid_argument for a port out of range or a port joined to
  /// itself.
  /// `width` > 1 stands for a bundle of that many parallel circuits on consecutive ports.
  LinkId add_circuit(uint32_t optical_switch, uint32_t port_a, uint32_t port_b, uint32_t link_model,
                     bool active_at_start, double width = 1.0);
  /// Puts a node in pod `pod`. Routes between two nodes of the same pod stay inside it (they never
  /// leave through the data-centre network and come back), as a job's software addresses its own pod
  /// over the pod's fabric.
  void set_pod(NodeId n, uint32_t pod) { pods_.at(n) = pod; }
  /// The node's pod, or kNoPod.
  uint32_t pod(NodeId n) const { return pods_.at(n); }
  /// Whether a route between a and b must stay inside their pod: both are in the same pod.
  bool same_pod(NodeId a, NodeId b) const { return pods_.at(a) != kNoPod && pods_[a] == pods_.at(b); }
  /// Whether the link carries traffic when a run starts (every link but circuits not yet set up).
  bool active_at_start(LinkId l) const {
    return links_.at(l).circuit == kNoCircuit || circuits_[links_[l].circuit].active_at_start;
  }

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  const Node& node(NodeId n) const { return nodes_.at(n); }
  const Link& link(LinkId l) const { return links_.at(l); }
  /// Unit node ids in topology order.
  const std::vector<NodeId>& units() const { return units_; }
  /// Memory pool node ids in creation order.
  const std::vector<NodeId>& memories() const { return memories_; }
  const std::vector<OpticalSwitch>& optical_switches() const { return optical_switches_; }
  const std::vector<Circuit>& circuits() const { return circuits_; }
  /// (neighbour, link) pairs of a node, in the order the links were added.
  const std::vector<std::pair<NodeId, LinkId>>& neighbours(NodeId n) const { return adjacency_.at(n); }

 private:
  NodeId add_node(std::string name, NodeKind kind, uint32_t model);

  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::vector<NodeId> units_;
  std::vector<NodeId> memories_;
  std::vector<OpticalSwitch> optical_switches_;
  std::vector<Circuit> circuits_;
  std::vector<std::vector<std::pair<NodeId, LinkId>>> adjacency_;
  std::vector<uint32_t> pods_;  ///< per node: its pod, or kNoPod
  uint64_t node_limit_ = kMaxMachineNodes;
};

}  // namespace zs::topology
