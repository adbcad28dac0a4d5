// Every pluggable family a scenario names, in one object: the built-ins, open to plugins at run time.
#pragma once

#include "policy/policy_catalog.hpp"
#include "scenario/workload_builder.hpp"
#include "topology/machine_builder.hpp"

namespace zs::scenario {

/// The registries a scenario is read against. A default-constructed Catalog holds the built-ins; a front
/// end that loads plugins adds to it before loading scenarios, and hands the same object to every call.
struct Catalog {
  topology::TopologyGeneratorRegistry topology_generators = topology::builtin_topology_generators();
  WorkloadGeneratorRegistry workload_generators = builtin_workload_generators();
  policy::PolicyCatalog policies;
};

}  // namespace zs::scenario
