// Generator of k-ary n-dimensional tori (TPU-style direct networks: units linked to their neighbours).
#pragma once

#include "core/json_object.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Parameters: "dims" (1 to 3 sizes, the first varying fastest), "unit_model", "link_model",
/// "wraparound" (default true). Unit i links to its +1 neighbour in every dimension of size > 1
/// (and the last to the first when wrapping, so a dimension of size 2 has two parallel links).
void generate_torus(core::JsonObject& params, ModelBinder& binder, Machine& machine);

}  // namespace zs::topology
