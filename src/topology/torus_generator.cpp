// Torus generator.
#include "topology/torus_generator.hpp"

#include <vector>

namespace zs::topology {

void generate_torus(core::JsonObject& params, ModelBinder& binder, Machine& machine) {
  const auto& dims_json = params.required("dims");
  if (!dims_json.is_array() || dims_json.empty() || dims_json.size() > 3)
    throw params.error("dims", "expected an array of 1 to 3 dimension sizes");
  std::vector<int64_t> dims;
  int64_t total = 1;
  for (const auto& d : dims_json) {
    if (!d.is_number_integer() || d.get<int64_t>() < 1 || d.get<int64_t>() > (1 << 20))
      throw params.error("dims", "every dimension must be a whole number in [1, 1048576], got " + d.dump());
    dims.push_back(d.get<int64_t>());
    total *= dims.back();
  }
  if (total > (int64_t(1) << 24)) throw params.error("dims", "more than 16,777,216 units");
  const uint32_t unit_model = binder.unit_model(params, "unit_model");
  const uint32_t link_model = binder.link_model(params, "link_model");
  const bool wrap = params.boolean_or("wraparound", true);

  for (int64_t i = 0; i < total; ++i) machine.topology.add_unit("unit" + std::to_string(i), unit_model);
  const auto& units = machine.topology.units();
  int64_t stride = 1;
  for (int64_t k : dims) {
    for (int64_t i = 0; i < total; ++i) {
      const int64_t coord = (i / stride) % k;
      if (k == 1 || (coord == k - 1 && !wrap)) continue;
      const int64_t next = coord == k - 1 ? i - coord * stride : i + stride;
      machine.topology.add_link(units[i], units[next], link_model);
    }
    stride *= k;
  }
}

}  // namespace zs::topology
