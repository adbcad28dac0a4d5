// The list of parameter tables, from the model classes and the catalog's generators.
#include "scenario/parameter_tables.hpp"

#include "inventory/cluster_machine.hpp"

#include <algorithm>

#include "hw/compute_unit_model.hpp"
#include "hw/file_system_model.hpp"
#include "hw/link_model.hpp"
#include "hw/memory_pool_model.hpp"
#include "hw/optical_switch_model.hpp"
#include "hw/software_stack_model.hpp"
#include "hw/switch_model.hpp"
#include "reliability/failure_rates.hpp"
#include "scenario/regression_suite.hpp"
#include "scenario/scenario_params.hpp"
#include "scenario/sweep_spec.hpp"
#include "workload/expert_routing.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {
namespace {

/// Appends `table` and then, depth first, the tables of its nested objects (each once).
void add_with_parts(const core::ParamTable& table, std::vector<const core::ParamTable*>& out) {
  if (std::find(out.begin(), out.end(), &table) != out.end()) return;
  out.push_back(&table);
  for (const auto& p : table.params())
    if (p.part != nullptr) add_with_parts(*p.part, out);
}

}  // namespace

std::vector<const core::ParamTable*> parameter_tables(const Catalog& catalog) {
  std::vector<const core::ParamTable*> out;
  for (const core::ParamTable* model :
       {&hw::ComputeUnitModel::params(), &hw::LinkModel::params(), &hw::SwitchModel::params(),
        &hw::MemoryPoolModel::params(), &hw::OpticalSwitchModel::params(), &hw::FileSystemModel::params(),
        &hw::SoftwareStackModel::params()})
    add_with_parts(*model, out);
  add_with_parts(reliability::FailureRates::params(), out);
  add_with_parts(topology::topology_file_params(), out);
  add_with_parts(inventory::cluster_inventory_params(), out);
  for (const auto& generator : catalog.topology_generators.entries())
    if (generator.params != nullptr) add_with_parts(*generator.params, out);
  add_with_parts(workload_section_params(), out);
  for (const auto& generator : catalog.workload_generators.entries())
    if (generator.params != nullptr) add_with_parts(*generator.params, out);
  add_with_parts(workload::TransformerSpec::params(), out);
  add_with_parts(workload::expert_histogram_params(), out);
  for (const auto& policy : catalog.policies.placement.entries())
    if (policy.params != nullptr) add_with_parts(*policy.params, out);
  for (const auto& policy : catalog.policies.collective.entries())
    if (policy.params != nullptr) add_with_parts(*policy.params, out);
  for (const core::ParamTable* file :
       {&scenario_params(), &machine_file_params(), &recorded_workload_params(), &placement_map_params(),
        &sweep_params(), &regression_suite_params()})
    add_with_parts(*file, out);
  return out;
}

}  // namespace zs::scenario
