// The power every part of a machine draws, and the machine's energy over a stretch of time.
#pragma once

#include "core/units.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// What a machine's parts draw, by class, W. Units draw idle power, plus (load - idle) while they
/// compute; everything else draws the same whether the job computes or communicates.
struct MachinePower {
  core::Watts unit_idle;         ///< every unit at idle
  core::Watts unit_load_extra;   ///< every unit's load power minus its idle power (all computing at once)
  core::Watts hosts;             ///< every unit's share of its host (CPUs, host memory, storage, fans)
  core::Watts unit_ports;        ///< what links need at units' ends (NICs, transceivers)
  core::Watts switch_ports;      ///< switch ports with their transceivers, the switches' power per port
  core::Watts memory_pools;      ///< memory pools with their ports
  core::Watts optical_switches;  ///< optical circuit switches and the transceivers of their cabled ports

  /// Drawn whatever the units compute: everything but unit_load_extra, W.
  core::Watts standing() const;
  /// Every unit computing at once, W.
  core::Watts peak() const { return standing() + unit_load_extra; }
};

/// The power of every part of `machine`. A link of width w counts w ports at each end: a unit's end
/// draws its model's unit_port_power, a switch's end switch_port_power, a memory pool's end nothing
/// (the pool's power holds its ports). Links that are down still draw (their parts stay powered).
MachinePower machine_power(const Machine& machine);

/// Energy of a machine over one stretch of time, by class of part, J.
struct MachineEnergy {
  core::Joules units;  ///< idle power x time for every unit, plus (load - idle) x compute time
  core::Joules hosts;
  core::Joules unit_ports;
  core::Joules switch_ports;
  core::Joules memory_pools;
  core::Joules optical_switches;

  core::Joules total() const;  ///< the machine's (IT) energy, facility overhead not included
};

/// The energy over `elapsed` of a machine drawing `power`, whose units computed `compute_above_idle`
/// joules beyond their idle power (sum over units of (load - idle) x compute time).
MachineEnergy machine_energy(const MachinePower& power, core::Seconds elapsed,
                             core::Joules compute_above_idle);

}  // namespace zs::topology
