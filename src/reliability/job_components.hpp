// The failure-prone component instances of one job on its machine, and what each takes down.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "policy/failure_rates.hpp"
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
///   ranks on its units, named as the topology names it ("power<k>").
/// Rack and switch domains are named by their switch.
class JobComponents {
 public:
  /// Without a machine: unit, host and job components only; a topology domain is std::invalid_argument.
  JobComponents(const policy::FailureRates& rates, uint64_t ranks);
  /// On a machine, with rank r on unit_of_rank[r].
  JobComponents(const policy::FailureRates& rates, const topology::Machine& machine,
                const std::vector<topology::NodeId>& unit_of_rank);

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

 private:
  struct Domains {
    std::vector<std::string> names;
    std::vector<std::vector<uint64_t>> ranks;
    std::vector<std::vector<topology::NodeId>> units;
  };
  const policy::FailureRates& rates_;
  uint64_t ranks_ = 0;
  std::vector<std::string> unit_names_;  ///< by rank; empty without a machine
  std::vector<Domains> domains_;         ///< by component; filled for topology domains only
};

}  // namespace zs::reliability
