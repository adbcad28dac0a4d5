// Power of a machine's parts, summed over its units, links, memory pools and optical switches.
#include "topology/machine_power.hpp"

namespace zs::topology {

core::Watts MachinePower::standing() const {
  return unit_idle + hosts + unit_ports + switch_ports + memory_pools + optical_switches;
}

namespace {

/// Adds what one end of `link` draws at node `end` to `power`.
void add_link_end(const Machine& machine, const Link& link, NodeId end, MachinePower& power) {
  const auto& model = machine.link_models.at(link.model);
  switch (machine.topology.node(end).kind) {
    case NodeKind::kUnit:
      power.unit_ports += model.unit_port_power() * link.width;
      break;
    case NodeKind::kSwitch:
      power.switch_ports += model.switch_port_power() * link.width;
      break;
    case NodeKind::kMemory:
      break;  // the pool's own power holds its ports
  }
}

}  // namespace

MachinePower machine_power(const Machine& machine) {
  MachinePower power;
  const auto& topo = machine.topology;
  for (NodeId unit : topo.units()) {
    const auto& model = machine.unit_model(unit);
    power.unit_idle += model.idle_power();
    power.unit_load_extra += model.load_power() - model.idle_power();
    power.hosts += model.host_power();
  }
  for (const auto& link : topo.links()) {
    add_link_end(machine, link, link.a, power);
    add_link_end(machine, link, link.b, power);
  }
  for (NodeId pool : topo.memories()) power.memory_pools += machine.memory_model(pool).power();
  for (const auto& ocs : topo.optical_switches()) {
    const auto& model = machine.optical_switch_models.at(ocs.model);
    power.optical_switches += model.power() + model.transceiver_power() * double(ocs.port_nodes.size());
  }
  return power;
}

core::Joules MachineEnergy::total() const {
  return units + hosts + unit_ports + switch_ports + memory_pools + optical_switches;
}

MachineEnergy machine_energy(const MachinePower& power, core::Seconds elapsed,
                             core::Joules compute_above_idle) {
  return {power.unit_idle * elapsed + compute_above_idle,
          power.hosts * elapsed,
          power.unit_ports * elapsed,
          power.switch_ports * elapsed,
          power.memory_pools * elapsed,
          power.optical_switches * elapsed};
}

}  // namespace zs::topology
