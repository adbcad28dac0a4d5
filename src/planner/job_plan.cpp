// The planner's decisions: placement, collectives, NCCL environment, checkpoints, spares, Megatron arguments.
#include "planner/job_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/input_error.hpp"
#include "core/slurm_values.hpp"
#include "core/units.hpp"
#include "inventory/cluster_machine.hpp"
#include "planner/collective_choices.hpp"
#include "policy/placement/trace_fit.hpp"
#include "reliability/job_components.hpp"

namespace zs::planner {
namespace {

/// What a distributed checkpoint of the job writes in all, B (0 when the trace does not state it).
double checkpoint_state(const scenario::Scenario& s) {
  const auto size = s.trace.checkpoint_size();
  return size ? size->total.value() : 0.0;
}

/// Seconds to write `state` to the scenario's checkpoint store, all ranks at once, and how that was found.
std::pair<double, std::string> checkpoint_cost(const scenario::Scenario& s, double state) {
  using Kind = scenario::CheckpointStore::Kind;
  const auto& rel = *s.reliability;
  const auto& store = rel.store;
  std::string why = "written to " + store.describe();
  double seconds = 0;
  switch (store.kind) {
    case Kind::kBandwidth:
      seconds = state / store.bandwidth.value();
      break;
    case Kind::kFileSystem:
      seconds = store.file_system->write_time(core::Bytes(state), s.trace.mesh.size()).value();
      break;
    case Kind::kMemoryPools: {
      double bandwidth = 0;
      for (auto pool : s.machine.topology.memories())
        bandwidth += s.machine.memory_model(pool).bandwidth().value();
      if (bandwidth <= 0)
        throw core::InputError(s.file, "/reliability/checkpoint/target",
                               "machine \"" + s.machine.name + "\" has no memory pools to checkpoint to");
      seconds = state / bandwidth;
      break;
    }
  }
  if (rel.peer_memory)
    why += " (the persistent tier: snapshots to peer memory are costed by the engine, in zettasim goodput)";
  return {seconds, why};
}

std::optional<CheckpointChoice> choose_checkpoint(const scenario::Scenario& s,
                                                  const policy::Placement& placement) {
  if (!s.reliability) return std::nullopt;
  const auto& rel = *s.reliability;
  CheckpointChoice c;
  c.state = checkpoint_state(s);
  if (c.state <= 0) return std::nullopt;
  const reliability::JobComponents job(rel.rates, s.machine, placement.unit_of_rank);
  const double rate = job.rate_per_hour();
  c.mtbf = rate > 0 ? 3600.0 / rate : 0;
  std::string cost_why;
  std::tie(c.cost, cost_why) = checkpoint_cost(s, c.state);
  c.rule = rel.checkpoint.describe();
  c.interval = c.mtbf > 0 ? rel.checkpoint.interval(c.mtbf, c.cost) : rel.checkpoint.fixed_interval;
  c.why = "MTBF from " + rel.rates.file + " over the job's " + std::to_string(placement.unit_of_rank.size()) +
          " units, their hosts and every active link of the machine (fabric components counted on all of "
          "them: pessimistic for a job on part of the cluster); checkpoint of " +
          core::display(core::Bytes(c.state)) + " " + cost_why;
  return c;
}

}  // namespace

void check_plan_options(const PlanOptions& options) {
  core::require_slurm_value(core::job_name_problem(options.job_name), options.job_name, "--job-name");
  if (!options.partition.empty())
    core::require_slurm_value(core::partition_problem(options.partition), options.partition, "--partition");
  if (!options.time_limit.empty())
    core::require_slurm_value(core::time_limit_problem(options.time_limit), options.time_limit, "--time");
  if (options.script.empty() || options.script.find('\0') != std::string::npos)
    throw core::InputError("--script", "", "expected the training script's path");
}

void make_nccl_job(scenario::Scenario& s) {
  s.machine.step_latency = true;
  s.collective_options.algorithms = policy::AlgorithmSet::kNccl;
  s.resolved["policies"]["collective"]["step_latency"] = true;
  s.resolved["policies"]["collective"]["algorithms"] = "nccl";
}

JobPlan make_job_plan(const scenario::Scenario& s, const PlanOptions& options,
                      const policy::PolicyCatalog& policies) {
  if (!s.megatron)
    throw core::InputError(s.file, "/workload/generator",
                           "zettasim plan lays out Megatron-LM jobs: expected the \"megatron\" generator");
  check_plan_options(options);
  JobPlan plan;
  plan.options = options;
  plan.scenario = s.name;
  plan.machine = s.machine.name;
  plan.placement_policy = s.placement_policy;
  auto placer = policy::make_placement_policy(policies.placement, s.placement_policy,
                                              s.placement_map ? &*s.placement_map : nullptr);
  plan.placement = placer->place({s.trace, s.machine, s.seed});
  plan.placement_layout = plan.placement.layout;
  policy::check_trace_fits(s.machine, s.trace, plan.placement);  // memory and dtypes, as the engine checks
  for (const auto& axis : s.trace.mesh.axes()) plan.axes.push_back(axis.name);

  std::map<std::string, uint32_t> ranks_on_host;
  for (uint64_t r = 0; r < plan.placement.unit_of_rank.size(); ++r) {
    const auto& name = s.machine.topology.node(plan.placement.unit_of_rank[r]).name;
    const auto gpu = inventory::cluster_gpu_of(name);
    if (gpu.host.empty())
      throw core::InputError(s.file, "/machine",
                             "unit \"" + name +
                                 "\" is not a GPU of a cluster inventory (HOST/gpuN): plan a job on "
                                 "a machine whose topology is a cluster-inventory file");
    core::require_slurm_value(core::host_name_problem(gpu.host), gpu.host, s.file, "/machine");
    RankSlot slot{gpu.host, gpu.gpu, {}};
    for (size_t a = 0; a < plan.axes.size(); ++a) slot.coordinates.push_back(s.trace.mesh.coordinate(r, a));
    if (ranks_on_host[gpu.host]++ == 0) plan.hosts.push_back(gpu.host);
    plan.gpus_per_host = std::max(plan.gpus_per_host, ranks_on_host[gpu.host]);
    plan.ranks.push_back(std::move(slot));
  }
  // Spares: usable hosts the job leaves idle, from the end of the machine's order.
  std::vector<std::string> idle;
  std::set<std::string> seen;
  for (auto unit : s.machine.topology.units()) {
    const auto gpu = inventory::cluster_gpu_of(s.machine.topology.node(unit).name);
    if (ranks_on_host.count(gpu.host) || !seen.insert(gpu.host).second) continue;
    core::require_slurm_value(core::host_name_problem(gpu.host), gpu.host, s.file, "/machine");
    idle.push_back(gpu.host);
  }
  uint32_t spares = 0;
  if (options.spare_nodes) {
    spares = *options.spare_nodes;
    plan.spares_why = "--spare-nodes";
  } else if (s.reliability && s.reliability->spares > 0 && !s.reliability->re_place &&
             plan.gpus_per_host > 0) {
    spares = (s.reliability->spares + plan.gpus_per_host - 1) / plan.gpus_per_host;
    plan.spares_why =
        "the reliability section's " + std::to_string(s.reliability->spares) + " spare units in whole nodes";
  } else {
    plan.spares_why = "none asked for (--spare-nodes, or spare units in the reliability section)";
  }
  if (spares > idle.size())
    throw core::InputError(s.file, "",
                           "the job leaves " + std::to_string(idle.size()) + " usable nodes idle, " +
                               std::to_string(spares) + " spare nodes were asked for (" + plan.spares_why +
                               ")");
  plan.spare_hosts.assign(idle.end() - spares, idle.end());

  plan.collective_policy = s.collective_policy;
  // The choices of the NCCL job (make_nccl_job), whether or not the caller has made the scenario one.
  std::optional<topology::Machine> with_latency;
  if (!s.machine.step_latency) {
    with_latency = s.machine;
    with_latency->step_latency = true;
  }
  policy::CollectiveOptions nccl_options = s.collective_options;
  nccl_options.algorithms = policy::AlgorithmSet::kNccl;
  auto collective = policy::make_collective_policy(policies.collective, s.collective_policy, nccl_options);
  plan.collectives = collective_choices(s.trace, with_latency ? *with_latency : s.machine, plan.placement,
                                        *collective, policies.collective, nccl_options, s.file);
  std::tie(plan.nccl_environment, plan.nccl_why) = nccl_environment(plan.collectives, s.machine);
  plan.checkpoint = choose_checkpoint(s, plan.placement);
  auto command = workload::megatron_command(*s.megatron);
  plan.megatron = std::move(command.arguments);
  plan.unmapped = std::move(command.unmapped);
  if (options.iteration_time) apply_iteration_time(plan, *options.iteration_time, *s.megatron);
  const auto& machine = s.resolved.at("derived").at("machine");
  plan.left_out = machine.contains("left_out") ? machine.at("left_out") : nlohmann::json::array();
  return plan;
}

void apply_iteration_time(JobPlan& plan, double iteration_time, const workload::MegatronJob& job) {
  plan.options.iteration_time = iteration_time;
  if (!plan.checkpoint || !(iteration_time > 0)) return;
  plan.save_interval = std::max<long long>(1, std::llround(plan.checkpoint->interval / iteration_time));
  auto command = workload::megatron_command(job, plan.save_interval);
  plan.megatron = std::move(command.arguments);
  plan.unmapped = std::move(command.unmapped);
}

nlohmann::json ranks_json(const JobPlan& plan) {
  nlohmann::json ranks = nlohmann::json::array();
  for (size_t r = 0; r < plan.ranks.size(); ++r) {
    nlohmann::json mesh = nlohmann::json::object();
    for (size_t a = 0; a < plan.axes.size(); ++a) mesh[plan.axes[a]] = plan.ranks[r].coordinates[a];
    ranks.push_back({{"rank", r}, {"host", plan.ranks[r].host}, {"gpu", plan.ranks[r].gpu}, {"mesh", mesh}});
  }
  return ranks;
}

nlohmann::json plan_json(const JobPlan& plan) {
  const nlohmann::json ranks = ranks_json(plan);
  nlohmann::json collectives = nlohmann::json::array();
  for (const auto& c : plan.collectives)
    collectives.push_back({{"communicator", c.communicator},
                           {"kind", c.kind},
                           {"bytes", c.bytes},
                           {"members", c.members},
                           {"algorithm", c.algorithm},
                           {"nccl_algorithm", c.nccl}});
  nlohmann::json nccl = nlohmann::json::object();
  for (const auto& [k, v] : plan.nccl_environment) nccl[k] = v;
  nlohmann::json megatron = nlohmann::json::array();
  for (const auto& [flag, value] : plan.megatron)
    megatron.push_back(value.empty() ? flag : flag + " " + value);
  nlohmann::json out = {{"scenario", plan.scenario},
                        {"machine", plan.machine},
                        {"placement",
                         {{"policy", plan.placement_policy},
                          {"why", plan.placement_layout},
                          {"ranks", plan.ranks.size()},
                          {"hosts", plan.hosts.size()},
                          {"gpus_per_host", plan.gpus_per_host}}},
                        {"spares",
                         {{"hosts", plan.spare_hosts},
                          {"why",
                           "usable nodes the job leaves idle, held in the allocation for restarts, from the "
                           "end of the machine's order: " +
                               plan.spares_why}}},
                        {"left_out", plan.left_out},
                        {"collectives",
                         {{"policy", plan.collective_policy},
                          {"choices", collectives},
                          {"nccl_environment", nccl},
                          {"why", plan.nccl_why}}},
                        {"megatron_arguments", megatron},
                        {"not_expressed", plan.unmapped},
                        {"ranks", ranks}};
  if (plan.checkpoint) {
    const auto& c = *plan.checkpoint;
    out["checkpoint"] = {{"rule", c.rule},         {"mtbf_s", c.mtbf},         {"cost_s", c.cost},
                         {"state_bytes", c.state}, {"interval_s", c.interval}, {"why", c.why}};
    if (plan.save_interval > 0)
      out["checkpoint"]["save_interval_iterations"] = plan.save_interval;
    else
      out["checkpoint"]["save_interval_iterations"] = "needs an iteration time: run plan with --predict";
  } else {
    out["checkpoint"] =
        "not decided: the scenario has no reliability section (failure rates and a checkpoint store)";
  }
  return out;
}

}  // namespace zs::planner
