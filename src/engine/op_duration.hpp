// The time a trace's compute op takes on a unit: its measured duration, or the unit model's estimate.
#pragma once

#include "core/units.hpp"
#include "hw/compute_unit_model.hpp"
#include "workload/trace.hpp"

namespace zs::engine {

/// What the unit's cost function sees of a compute op, at its nominal load.
hw::ComputeWork work_of(const workload::ComputeOp& c);

/// `c`'s measured duration when the trace gives one, else `model`'s time for `work` (the op's work,
/// possibly scaled by its expert load), s. Before any straggler slowdown.
core::Seconds op_duration(const hw::ComputeUnitModel& model, const workload::ComputeOp& c,
                          const hw::ComputeWork& work);

/// The same at the op's nominal load.
inline core::Seconds op_duration(const hw::ComputeUnitModel& model, const workload::ComputeOp& c) {
  return op_duration(model, c, work_of(c));
}

}  // namespace zs::engine
