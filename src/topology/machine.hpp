// A machine: the topology graph together with the hardware models its nodes and links use.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/compute_unit_model.hpp"
#include "hw/link_model.hpp"
#include "hw/memory_pool_model.hpp"
#include "topology/topology.hpp"

namespace zs::topology {

struct Machine {
  std::string name;
  std::string generator;  ///< which generator built it, for reports
  Topology topology;
  std::vector<hw::ComputeUnitModel> unit_models;   ///< indexed by Node::model
  std::vector<hw::LinkModel> link_models;          ///< indexed by Link::model
  std::vector<hw::MemoryPoolModel> memory_models;  ///< indexed by Node::model of memory nodes

  const hw::ComputeUnitModel& unit_model(NodeId unit) const {
    return unit_models.at(topology.node(unit).model);
  }
  const hw::LinkModel& link_model(LinkId link) const { return link_models.at(topology.link(link).model); }
  size_t unit_count() const { return topology.units().size(); }
  const hw::MemoryPoolModel& memory_model(NodeId pool) const {
    return memory_models.at(topology.node(pool).model);
  }
  /// Bandwidth of a link in each direction: its model's times its width, B/s.
  core::ByteRate link_bandwidth(LinkId link) const {
    return link_model(link).bandwidth() * topology.link(link).width;
  }
};

}  // namespace zs::topology
