// The failure-prone component instances of one job on its machine, and what each takes down.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reliability/fabric_parts.hpp"
#include "reliability/failure_rates.hpp"
#include "topology/machine.hpp"

namespace zs::reliability {

/// Per component of a rate table: how many instances the job has and which of its ranks each takes down.
/// - unit: one per rank, named by the unit's topology name (or "unit<r>" without a machine);
/// - host: ranks [k·h, (k+1)·h) with h the table's units_per_host, named "host<k>";
/// - job: one instance, "job", taking every rank;
/// - switch: every electrical switch with job units attached, taking exactly those units' ranks;
/// - rack: every domain switch (topology::domain_switch: a rack's scale-up switch, a server's NVSwitch, a
///   unit's only leaf) with job units, taking the ranks on the units whose domain it is.
/// - power-domain: every power domain of the machine (Machine::power_domains) with job units, taking the
///   ranks on its units, named as the topology names it ("power<k>");
/// - link: every physical cable of the links the job's traffic crosses (a link of width w >= 2 is
///   floor(w) cables, each carrying 1/floor(w) of it), named "a - b" after its nodes ("a - b #k" for
///   cable k > 0); links to memory pools are left out;
/// - optical-port: every port of the optical circuits active at the start that the job's traffic crosses
///   (a circuit of width w takes w consecutive ports at each end), named "<switch>:<port>";
/// - memory-pool: every memory pool in which some rank keeps data (FabricUse::pool_bytes_of_rank > 0),
///   named by the topology.
/// Rack and switch domains are named by their switch. A fabric part takes no rank by itself: what it cuts
/// off depends on what else is down (cut_off). Nor does a memory pool: its ranks move to other pools
/// (pools_without).
class JobComponents {
 public:
  /// What a job uses of the fabric and of the memory pools, for link, optical-port and memory-pool
  /// components.
  struct FabricUse {
    std::vector<char> links;  ///< per link: 1 when the job's traffic crosses it; empty: every active link
    std::vector<topology::NodeId> pool_of_rank;  ///< the memory pool each rank's moves use; empty: none
    std::vector<uint32_t> class_of_rank;         ///< ranks running the same program; empty: each its own
    std::vector<double> pool_bytes_of_rank;      ///< with pool_of_rank: what each rank keeps there, B
  };
  /// An optical switch port as an instance: its circuit's link, and the group of ports it can be
  /// re-patched to (same switch, cabled to the same node).
  struct OpticalPort {
    uint32_t optical_switch = 0;
    uint32_t port = 0;
    topology::LinkId link = 0;
    uint32_t spare_group = 0;    ///< index into spare_ports()
    double reconfiguration = 0;  ///< the switch model's time to re-point a port, s
  };

  /// Without a machine: unit, host and job components only; a component counted on the machine is
  /// std::invalid_argument.
  JobComponents(const FailureRates& rates, uint64_t ranks);
  /// On a machine, with rank r on unit_of_rank[r].
  JobComponents(const FailureRates& rates, const topology::Machine& machine,
                const std::vector<topology::NodeId>& unit_of_rank, FabricUse fabric = {});

  uint64_t ranks() const { return ranks_; }
  uint64_t instances(uint32_t component) const;
  uint64_t units_taken(uint32_t component, uint64_t instance) const;
  std::vector<uint64_t> ranks_taken(uint32_t component, uint64_t instance) const;
  /// Topology domains: every unit the instance takes down, the job's and idle ones (topology order for
  /// racks and switches, the power domain's order). Other components: empty (their units are the ranks').
  std::vector<topology::NodeId> units_down(uint32_t component, uint64_t instance) const;
  std::string instance_name(uint32_t component, uint64_t instance) const;
  /// The instance with this name, if the job has one.
  std::optional<uint64_t> find_instance(uint32_t component, const std::string& name) const;
  /// Failures per hour of the whole job: instances x rate summed over components, 1/h.
  double rate_per_hour() const;

  /// Fabric components: the link the instance belongs to, and the share of its bandwidth the instance
  /// carries (1 / its cables; an optical port: 1 / its circuit's width).
  topology::LinkId fabric_link(uint32_t component, uint64_t instance) const;
  double fabric_share(uint32_t component, uint64_t instance) const;
  /// Optical-port components: the port.
  const OpticalPort& optical_port(uint32_t component, uint64_t instance) const;
  /// Per spare group: ports of the switch cabled to the group's node that carry no circuit at the start.
  const std::vector<uint32_t>& spare_ports() const { return spare_ports_; }
  /// With the links `down` out of service and rank r on unit_of_rank[r]: what is cut off
  /// (reliability::cut_off, with the job's memory pools).
  CutOff cut_off(const std::vector<topology::LinkId>& down,
                 const std::vector<topology::NodeId>& unit_of_rank) const;
  /// Where the job starts.
  const std::vector<topology::NodeId>& unit_of_rank() const { return unit_of_rank_; }
  /// Memory-pool components: the pool.
  topology::NodeId memory_pool(uint64_t instance) const { return pools_.at(instance); }
  /// Where each rank keeps its pool data with the pools `down` out of service (reliability::pools_without
  /// from the job's pools); nullopt when a rank of a down pool finds no healthy pool with room.
  std::optional<std::vector<topology::NodeId>> pools_without(const std::vector<topology::NodeId>& down) const;
  /// The link's class (reliability::link_classes, with the ranks' classes given in FabricUse); only with
  /// a fabric component.
  uint32_t link_class(topology::LinkId link) const { return link_class_.at(link); }

 private:
  struct Domains {
    std::vector<std::string> names;
    std::vector<std::vector<uint64_t>> ranks;
    std::vector<std::vector<topology::NodeId>> units;
  };
  /// A fabric component's instances: cable or port k of the job's parts.
  struct Fabric {
    std::vector<topology::LinkId> links;  ///< per link the job uses: the link
    std::vector<uint64_t> first;          ///< per link: its first instance (links.size() + 1 entries)
    std::vector<OpticalPort> ports;       ///< optical-port: per instance
  };
  void add_links(uint32_t component, const std::vector<char>& used);
  void add_ports(uint32_t component, const std::vector<char>& used);

  const FailureRates& rates_;
  const topology::Machine* machine_ = nullptr;
  uint64_t ranks_ = 0;
  std::vector<std::string> unit_names_;         ///< by rank; empty without a machine
  std::vector<topology::NodeId> unit_of_rank_;  ///< empty without a machine
  std::vector<topology::NodeId> pool_of_rank_;  ///< empty: no memory pools used
  std::vector<double> pool_bytes_of_rank_;      ///< B, with pool_of_rank_
  std::vector<topology::NodeId> pools_;         ///< the pools ranks keep data in, ascending
  std::vector<Domains> domains_;                ///< by component; filled for topology domains only
  std::vector<Fabric> fabric_;                  ///< by component; filled for fabric components only
  std::vector<uint32_t> spare_ports_;           ///< per spare group
  std::vector<uint32_t> link_class_;            ///< per link
};

}  // namespace zs::reliability
