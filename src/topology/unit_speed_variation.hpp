// Unit-to-unit variation of compute speed: each unit of a machine drawn slower than its model by a
// persistent factor, so that every synchronous group waits for its slowest member (max of N).
#pragma once

#include <cstdint>
#include <string>

#include "core/param_table.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// How much identical units differ in compute speed (manufacturing and power management): each unit's
/// slowdown is 1 + cv * max(z, 0) with z standard normal, drawn once per run. Units drawn faster than
/// their model run at the model's speed: the models are calibrated on typical units, and a synchronous
/// group of several is paced by its slowest (its expected slowdown is 1 + cv * E[max of N normals]).
struct UnitSpeedVariation {
  double cv = 0;  ///< coefficient of variation of unit speed (standard deviation / median)
  /// Coefficient of variation of each compute op's time (per-step jitter: OS noise, clock changes):
  /// every op on every rank takes 1 + op_cv * max(z, 0) times as long, z drawn per rank and op.
  double op_cv = 0;
  std::string source;  ///< where cv comes from (a measurement's citation), or "assumption: ..."
};

/// The keys of a scenario's unit_speed_variation section: cv, op_cv, source.
const core::ParamTable& unit_speed_variation_params();

/// Multiplies every compute unit's slowdown in `machine` by its draw (units in topology order, one
/// standard normal each from `seed`'s stream; cv 0 draws nothing), and sets the machine's op jitter.
void apply_unit_speed_variation(Machine& machine, const UnitSpeedVariation& variation, uint64_t seed);

}  // namespace zs::topology
