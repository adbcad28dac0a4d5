// Unit speed variation drawn onto a machine's units.
#include "topology/unit_speed_variation.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/splitmix.hpp"

namespace zs::topology {

const core::ParamTable& unit_speed_variation_params() {
  static const core::ParamTable table(
      "unit-speed-variation",
      "persistent unit-to-unit variation of compute speed; every synchronous group waits for its slowest "
      "unit",
      {core::Param::number(
           "cv", 0.0, 0.5,
           "coefficient of variation of unit speed: each unit's compute takes 1 + cv x max(z, 0) "
           "times its model's time, z standard normal, drawn once per run from the seed"),
       core::Param::number("op_cv", 0.0, 0.5,
                           "coefficient of variation of each compute op's time (per-step jitter): every op "
                           "on every rank takes 1 + op_cv x max(z, 0) times as long, z drawn per rank and op")
           .or_default(0.0),
       core::Param::text("source", "the measurement cv comes from (paper, URL), or \"assumption: ...\"")});
  return table;
}

namespace {
/// The standard normal that Box and Muller's transform makes of two uniforms in (0, 1).
double standard_normal(double u1, double u2) {
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}
}  // namespace

void apply_unit_speed_variation(Machine& machine, const UnitSpeedVariation& variation, uint64_t seed) {
  machine.op_jitter = {variation.op_cv, seed};
  if (variation.cv <= 0) return;
  core::SplitMixStream draws(core::splitmix64(seed ^ 0x756e69742d737064ull));  // "unit-spd"
  for (NodeId unit : machine.topology.units()) {
    const double u1 = draws.uniform(), u2 = draws.uniform();
    const double factor = 1.0 + variation.cv * std::max(0.0, standard_normal(u1, u2));
    if (factor == 1.0) continue;
    auto [it, fresh] = machine.unit_slowdown.try_emplace(unit, factor);
    if (!fresh) it->second *= factor;
  }
}

}  // namespace zs::topology
