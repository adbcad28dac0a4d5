// The keys of a scenario file and of the machine, workload and policy sections and files it names.
#pragma once

#include "core/param_table.hpp"

namespace zs::scenario {

/// A scenario file: kind, name, description, seed, fidelity, machine, workload, policies, reliability,
/// circuit_reconfigurations.
const core::ParamTable& scenario_params();
/// A machine inline in a scenario: models and topology.
const core::ParamTable& machine_section_params();
/// A machine file: kind and description, then a machine section's keys.
const core::ParamTable& machine_file_params();
/// A recorded workload: trace or chakra.
const core::ParamTable& recorded_workload_params();
/// The policies section: placement and collective.
const core::ParamTable& policies_params();
/// The collective policy as an object: name, chunk, max_chunks.
const core::ParamTable& collective_options_params();
/// The from-file placement as an object: name and map.
const core::ParamTable& placement_from_file_params();
/// A placement map file: kind, description, units.
const core::ParamTable& placement_map_params();

}  // namespace zs::scenario
