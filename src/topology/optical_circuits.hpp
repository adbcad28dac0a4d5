// Optical circuit switches in topology files, and their circuits over time (reconfigurations).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"
#include "topology/router.hpp"

namespace zs::topology {

/// Reads the optional array `key` of optical switches:
///   {"name": "ocs0", "model": "ocs", "ports": ["tor0", "tor1", ...], "circuits": [[0, 1], ...]}
/// Port p is cabled to the node named ports[p]; each circuit joins two ports and is active at the
/// start. A port may carry at most one circuit; more ports than the model has is an error.
void read_optical_switches(core::ParamReader& params, const char* key, ModelBinder& binder, Machine& machine,
                           const std::map<std::string, NodeId>& node_by_name);
/// The keys of one optical switch of that array.
const core::ParamTable& optical_switch_params();

/// From `at` on, optical switch `optical_switch` has exactly the given circuits (port pairs).
struct CircuitReconfiguration {
  core::Seconds at;
  uint32_t optical_switch = 0;
  std::vector<std::pair<uint32_t, uint32_t>> circuits;
};

/// The keys of one reconfiguration: at, optical_switch, circuits.
const core::ParamTable& circuit_reconfiguration_params();
/// Reads a scenario's array of reconfigurations, adds to the machine the circuits they set up that
/// it does not have yet (inactive at the start), and returns them sorted by time (stable).
std::vector<CircuitReconfiguration> read_circuit_reconfigurations(core::JsonObject& scenario, const char* key,
                                                                  Machine& machine);

/// The circuits of every optical switch over a run. A reconfiguration tears down the circuits that
/// change and sets up the new ones; the ports it touches carry nothing for the switch's
/// reconfiguration time, and ports whose circuit stays are not touched.
/// Transfers see the fabric as it is when they start: a transfer routed over a circuit that is
/// still being set up waits until it is up. (A transfer already in flight on a circuit that is torn
/// down finishes on it: the scheduler is assumed to drain a port before reconfiguring it.)
class CircuitTimeline {
 public:
  CircuitTimeline(const Machine& machine, std::vector<CircuitReconfiguration> reconfigurations);

  /// Switches off in `router` the circuits not active at the start.
  void initialize(Router& router) const;
  /// Applies to `router` every reconfiguration due at or before `now`.
  void advance(core::Seconds now, Router& router);
  /// The time at which every circuit on the route is up (0 when none is being set up), s.
  core::Seconds ready_at(const std::vector<LinkId>& route) const;
  bool empty() const { return reconfigurations_.empty(); }

 private:
  const Machine& machine_;
  std::vector<CircuitReconfiguration> reconfigurations_;
  size_t next_ = 0;
  std::vector<double> ready_;  ///< per circuit: when it is up, s
  /// per optical switch, per port: the circuit on it now, or kNoCircuit
  std::vector<std::vector<uint32_t>> circuit_on_port_;
};

}  // namespace zs::topology
