// Pool-resident bytes of a role program.
#include "workload/pool_residency.hpp"

#include <algorithm>
#include <variant>

namespace zs::workload {

core::Bytes pool_resident_bytes(const RoleProgram& role) {
  double written = 0, read = 0;
  for (const auto& op : role.ops)
    if (const auto* m = std::get_if<MemoryOp>(&op.body))
      (m->direction == MemoryDirection::kWrite ? written : read) += m->bytes.value();
  return core::Bytes(std::max(written, read));
}

std::vector<double> pool_resident_bytes_by_role(const Trace& trace) {
  std::vector<double> out;
  for (const auto& role : trace.roles) out.push_back(pool_resident_bytes(role).value());
  return out;
}

}  // namespace zs::workload
