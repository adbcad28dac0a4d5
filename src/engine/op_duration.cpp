// The time a trace's compute op takes on a unit.
#include "engine/op_duration.hpp"

namespace zs::engine {

hw::ComputeWork work_of(const workload::ComputeOp& c) {
  return {c.flops, c.bytes, c.dtype, c.kind, c.kernels};
}

core::Seconds op_duration(const hw::ComputeUnitModel& model, const workload::ComputeOp& c,
                          const hw::ComputeWork& work) {
  return c.duration ? *c.duration : model.compute_time(work);
}

}  // namespace zs::engine
