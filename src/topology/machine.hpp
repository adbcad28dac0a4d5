// A machine: the topology graph together with the hardware models its nodes and links use.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/compute_unit_model.hpp"
#include "hw/link_model.hpp"
#include "hw/memory_pool_model.hpp"
#include "hw/optical_switch_model.hpp"
#include "hw/switch_model.hpp"
#include "topology/topology.hpp"

namespace zs::topology {

struct Machine {
  std::string name;
  std::string generator;  ///< which generator built it, for reports
  Topology topology;
  std::vector<hw::ComputeUnitModel> unit_models;   ///< indexed by Node::model
  std::vector<hw::LinkModel> link_models;          ///< indexed by Link::model
  std::vector<hw::MemoryPoolModel> memory_models;  ///< indexed by Node::model of memory nodes
  std::vector<hw::SwitchModel> switch_models;      ///< indexed by Node::model of switches
  std::vector<hw::OpticalSwitchModel> optical_switch_models;  ///< indexed by OpticalSwitch::model

  const hw::ComputeUnitModel& unit_model(NodeId unit) const {
    return unit_models.at(topology.node(unit).model);
  }
  const hw::LinkModel& link_model(LinkId link) const { return link_models.at(topology.link(link).model); }
  size_t unit_count() const { return topology.units().size(); }
  const hw::MemoryPoolModel& memory_model(NodeId pool) const {
    return memory_models.at(topology.node(pool).model);
  }
  /// The switch's model, or nullptr for a switch without one (and for units and pools).
  const hw::SwitchModel* switch_model(NodeId node) const {
    const auto& n = topology.node(node);
    return n.kind == NodeKind::kSwitch && n.model != kNoModel ? &switch_models.at(n.model) : nullptr;
  }
  /// Latency a route pays for passing through the node: its switch model's, else 0, s.
  core::Seconds transit_latency(NodeId node) const {
    const auto* sw = switch_model(node);
    return sw != nullptr ? sw->latency() : core::Seconds(0.0);
  }
  /// Bandwidth bulk data achieves on a link in each direction: its model's effective bandwidth times its
  /// width, B/s.
  core::ByteRate link_bandwidth(LinkId link) const {
    return link_model(link).effective_bandwidth() * topology.link(link).width;
  }
};

}  // namespace zs::topology
