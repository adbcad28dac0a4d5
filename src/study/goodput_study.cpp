// A goodput study: the healthy iteration, the job's components, recovery and checkpoints, the seeds.
#include "study/goodput_study.hpp"

#include <algorithm>
#include <memory>

#include "core/input_error.hpp"
#include "reliability/job_components.hpp"
#include "study/checkpoint_setup.hpp"
#include "study/recovery_setup.hpp"
#include "study/scenario_simulation.hpp"
#include "workload/pool_residency.hpp"

namespace zs::study {
namespace {

/// What the job uses of the fabric and the memory pools: the links the healthy iteration's traffic crossed
/// (either way), the pool each rank uses and what it keeps there (when any rank keeps data in one), and
/// the ranks' roles. A component on a machine without its kind of part is an input error.
reliability::JobComponents::FabricUse fabric_use(const scenario::Scenario& s, const std::string& file,
                                                 const policy::Placement& placement,
                                                 const engine::ReplayResult& healthy) {
  reliability::JobComponents::FabricUse use;
  const auto& rates = s.reliability->rates;
  if (std::none_of(rates.components.begin(), rates.components.end(),
                   [](const auto& c) { return c.fabric() || c.memory_pool(); }))
    return use;
  for (const auto& c : rates.components) {
    const bool no_ocs =
        c.per == reliability::FailureScope::kOpticalPort && s.machine.topology.optical_switches().empty();
    const bool no_pool = c.memory_pool() && s.machine.topology.memories().empty();
    if (no_ocs || no_pool)
      throw core::InputError(file, "/reliability/failure_rates",
                             "component \"" + c.name + "\" of " + rates.file + " fails per " +
                                 (no_ocs ? "optical port" : "memory pool") + ", but machine \"" +
                                 s.machine.name + "\" has no " +
                                 (no_ocs ? "optical circuit switch" : "memory pool"));
  }
  const auto& bytes = healthy.link_bytes;
  use.links.resize(s.machine.topology.links().size(), 0);
  for (size_t l = 0; l < use.links.size() && 2 * l + 1 < bytes.size(); ++l)
    use.links[l] = bytes[2 * l] > 0 || bytes[2 * l + 1] > 0 ? 1 : 0;
  const auto kept_by_role = workload::pool_resident_bytes_by_role(s.trace);
  for (uint64_t r = 0; r < s.trace.mesh.size(); ++r) {
    use.class_of_rank.push_back(s.trace.role_of(r));
    use.pool_bytes_of_rank.push_back(kept_by_role[use.class_of_rank.back()]);
  }
  if (std::any_of(use.pool_bytes_of_rank.begin(), use.pool_bytes_of_rank.end(),
                  [](double b) { return b > 0; }))
    use.pool_of_rank = placement.pool_of_rank;
  else
    use.pool_bytes_of_rank.clear();
  return use;
}

/// What a distributed checkpoint of the job writes (workload::Trace::checkpoint_size).
workload::CheckpointSize checkpoint_size(const scenario::Scenario& s, const std::string& file) {
  const auto size = s.trace.checkpoint_size();
  if (!size)
    throw core::InputError(file, "/reliability/checkpoint",
                           "the trace does not state what each rank checkpoints, so the checkpoint size is "
                           "unknown (a recorded trace: use a generated workload)");
  return *size;
}

}  // namespace

void require_reliability_section(const scenario::Scenario& s, const std::string& file) {
  if (!s.reliability)
    throw core::InputError(
        file, "/reliability",
        "expected a reliability section (failure_rates, horizon, seeds, checkpoint, detection, "
        "restart, repair; optional spares) for goodput");
}

GoodputStudy run_goodput_study(std::shared_ptr<const scenario::Scenario> held, const std::string& file,
                               const GoodputStudyOptions& options, const policy::PolicyCatalog& policies) {
  const scenario::Scenario& s = *held;
  require_reliability_section(s, file);
  const auto& rel = *s.reliability;
  GoodputStudy result;
  const workload::CheckpointSize checkpoint = checkpoint_size(s, file);
  result.checkpoint_state = checkpoint.total.value();
  result.checkpoint_state_per_rank_max = checkpoint.per_rank_max.value();
  std::shared_ptr<const policy::PlacementPolicy> placement_policy = placement_policy_of(s, policies);
  const auto placed =
      std::make_shared<const policy::Placement>(placement_policy->place({s.trace, s.machine, s.seed}));
  const policy::Placement& placement = *placed;
  // The checkpoint store first: a store that cannot work is refused before any simulation.
  const CheckpointSetup stored = checkpoint_setup(s, file, placement, result.checkpoint_state, policies);
  result.checkpoint = stored.description;
  // The healthy iteration: the links its traffic crosses are the job's links and optical ports.
  result.iteration = simulate_scenario(s, policies, false, options.progress);
  const auto job = std::make_shared<const reliability::JobComponents>(
      rel.rates, s.machine, placement.unit_of_rank, fabric_use(s, file, placement, result.iteration.replay));
  const SimulatedJob simulated{held, placed, placement_policy,
                               std::make_shared<const policy::PolicyCatalog>(policies), job};
  reliability::GoodputConfig cfg = recovery_config(simulated, file);
  cfg.checkpoint_cost = stored.cost;
  cfg.checkpoint_drain = stored.drain;
  cfg.peer = stored.peer;
  cfg.degraded = std::make_shared<reliability::DegradedIterations>(degraded_iteration_simulator(simulated));
  cfg.iteration = result.iteration.replay.iteration_time;
  cfg.tokens_per_iteration = s.trace.tokens_per_iteration;
  cfg.units = s.trace.mesh.size();
  cfg.horizon = rel.horizon;
  cfg.checkpoint = rel.checkpoint;
  cfg.max_events_per_seed = options.max_events;
  result.seeds = options.seeds > 0 ? options.seeds : rel.seeds;
  try {
    result.summary = reliability::simulate_goodput(rel.rates, cfg, s.seed, result.seeds, options.progress);
  } catch (const reliability::WorkLimitExceeded& e) {
    throw core::InputError(file, "/reliability/horizon", e.what());
  }
  result.units = cfg.units;
  result.idle_units = s.machine.unit_count() - cfg.units;
  result.horizon = cfg.horizon;
  result.checkpoint_cost = cfg.checkpoint_cost;
  result.spares = cfg.spares;
  result.recovery = rel.recovery_name;
  result.shrinks = cfg.recovery->may_shrink();
  result.replicas = cfg.replicas;
  result.peer_checkpoints = cfg.peer != nullptr;
  if (cfg.re_placement != nullptr) {
    result.optical_reconfiguration = cfg.re_placement->reconfiguration;
    result.displaced_iterations = cfg.re_placement->iteration_by_key;
  }
  for (const auto& [key, state] : cfg.degraded->states()) result.degraded_iterations.push_back(state);
  for (uint32_t c = 0; c < rel.rates.components.size(); ++c)
    result.instances_by_component.push_back(job->instances(c));
  return result;
}

}  // namespace zs::study
