// Disaggregated machine generator: racks of compute and CXL memory pools, pods, an optical core.
#pragma once

#include "core/param_reader.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"

namespace zs::topology {

/// Builds pods of racks. A rack is a compute pool: `rack.units` units on one scale-up switch (an
/// NVLink domain) with `rack.memory_pools` CXL pools attached to that switch. Every unit also has a
/// NIC link to its rack's top-of-rack switch; each top-of-rack switch joins its pod's spine with an
/// aggregated uplink (units x NIC bandwidth / oversubscription), the spine standing for the pod's
/// whole non-blocking spine tier as in the fat-tree generator. Pods are joined through an optical
/// core: `optical_core.switches` optical circuit switches, on each of which every pod's spine has
/// `ports_per_pod` ports; switch k starts with the circuits of round k of a round-robin tournament
/// between the pods, so with pods - 1 switches every pair of pods has a direct bundle of circuits.
void generate_disaggregated(core::ParamReader& params, ModelBinder& binder, Machine& machine);
/// The keys this generator reads, declared once.
const core::ParamTable& disaggregated_params();

}  // namespace zs::topology
