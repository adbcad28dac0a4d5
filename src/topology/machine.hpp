// A machine: the topology graph together with the hardware models its nodes and links use.
#pragma once

#include <map>
#include <set>
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

/// Units fed by one power feed: a failure of the feed takes all of them down.
struct PowerDomain {
  std::string name;
  std::vector<NodeId> units;
};

struct Machine {
  std::string name;
  std::string generator;  ///< which generator built it, for reports
  Topology topology;
  std::vector<hw::ComputeUnitModel> unit_models;              ///< indexed by Node::model
  std::vector<hw::LinkModel> link_models;                     ///< indexed by Link::model
  std::vector<hw::MemoryPoolModel> memory_models;             ///< indexed by Node::model of memory nodes
  std::vector<hw::SwitchModel> switch_models;                 ///< indexed by Node::model of switches
  std::vector<hw::OpticalSwitchModel> optical_switch_models;  ///< indexed by OpticalSwitch::model
  /// Degradations in force (stragglers): compute on the unit takes this many times as long (2: half speed).
  /// Empty for a healthy machine.
  std::map<NodeId, double> unit_slowdown;
  /// Per-op jitter of compute time: each op takes 1 + cv * max(z, 0) times as long, z standard normal
  /// drawn from `seed` per rank and op (cv 0: none).
  struct OpJitter {
    double cv = 0;
    uint64_t seed = 0;
  } op_jitter;
  /// Degraded links: the link carries this fraction of its bandwidth. Empty for a healthy machine.
  std::map<LinkId, double> link_derating;
  /// Failed links (a cable, a transceiver, an optical switch port): no route crosses them. Empty for a
  /// healthy machine.
  std::set<LinkId> links_down;
  /// Whether transfers pay the step_latency of their links' models (policies.collective.step_latency: a
  /// collective library's per-step cost; the scenario loader sets it, on unless the file turns it off);
  /// false: the links' and switches' latencies only, as for a machine built in code.
  bool step_latency = false;
  /// Power domains the topology file declares (topology/power_domains.hpp); empty when it declares none.
  std::vector<PowerDomain> power_domains;

  /// How many times as long compute takes on the unit: 1 unless it straggles.
  double compute_slowdown(NodeId unit) const {
    if (unit_slowdown.empty()) return 1.0;
    auto it = unit_slowdown.find(unit);
    return it == unit_slowdown.end() ? 1.0 : it->second;
  }

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
  /// width (times its derating while degraded), B/s.
  core::ByteRate link_bandwidth(LinkId link) const {
    const core::ByteRate full = link_model(link).effective_bandwidth() * topology.link(link).width;
    if (link_derating.empty()) return full;
    auto it = link_derating.find(link);
    return it == link_derating.end() ? full : full * it->second;
  }
};

}  // namespace zs::topology
