// Failure rates per component type, read from a rate table such as models/reliability/llama3-405b-54d.json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "reliability/failure_scope.hpp"

namespace zs::reliability {

/// What a failure of a component needs before the job can restart.
enum class Recovery {
  kRestart,  ///< nothing: detect, restart from the last checkpoint (software, a rerouted network path)
  kReplace,  ///< the units it takes out must be swapped for spares (or repaired) first
};
/// "restart" or "replace", as a rate table's "recovery" names it.
std::string_view to_string(Recovery recovery);
/// The recovery of that name; none for another text.
std::optional<Recovery> parse_recovery(std::string_view name);

/// One component type of a rate table.
struct ComponentRate {
  std::string name;
  /// What one instance of the component is (a unit, a host, the job, a topology domain, a part of the
  /// fabric or a memory pool).
  FailureScope per = FailureScope::kUnit;
  double rate_per_hour = 0;  ///< mean failures per instance per hour, 1/h
  Recovery recovery = Recovery::kRestart;
  bool silent = false;       ///< silent data corruption: noticed only when the next checkpoint is validated
  double weibull_shape = 1;  ///< 1: exponential lifetimes; otherwise Weibull of this shape with the same mean
  std::string includes;      ///< what the published counts grouped here are
  /// Rack, switch and power-domain components: their instances and what each takes down come from the
  /// machine.
  bool topology_domain() const;
  /// Link and optical-port components: the job restarts routing around the failed part (recovery is
  /// always "restart"); units it cuts off are replaced.
  bool fabric() const;
  /// Memory-pool components: the job restarts with the pool's ranks on the nearest healthy pools with room
  /// (recovery is always "restart"), or waits for the repair when none has room.
  bool memory_pool() const;
  /// Topology domains, fabric parts and memory pools: instances counted on the machine
  /// (reliability::JobComponents).
  bool needs_machine() const;
};

/// A rate table: per-instance rates derived from counts observed on a cluster over a period, so that the
/// derivation is in the file and checkable (rate = count / (instances observed x duration)).
struct FailureRates {
  std::string name;
  std::string file;
  uint32_t units_per_host = 8;  ///< units behind one host, for "host" components (observed cluster's)
  std::vector<ComponentRate> components;

  /// Reads kind "failure-rates". A count or duration of zero or less, an unknown "per" or "recovery", a
  /// Weibull shape <= 0 are core::InputError with the JSON path.
  static FailureRates from_json(core::JsonObject& o);
  /// The keys of a failure-rate file, declared once.
  static const core::ParamTable& params();

  /// Instances of `c` in a job of `units` units (hosts rounded up). Not for components counted on the
  /// machine (std::logic_error): reliability::JobComponents counts those.
  uint64_t instances(const ComponentRate& c, uint64_t units) const;
  /// Units one failure of `c` takes out: 1 for a unit, units_per_host for a host, all for the job.
  uint64_t units_taken(const ComponentRate& c, uint64_t units) const;
  /// Failures per hour of a job of `units` units (sum over components of instances x rate), 1/h.
  double job_rate_per_hour(uint64_t units) const;
};

}  // namespace zs::reliability
