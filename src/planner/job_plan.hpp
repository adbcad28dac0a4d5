// What `zettasim plan` decides for a scenario's job on its machine, with the policy library only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "policy/placement/placement_policy.hpp"
#include "policy/policy_catalog.hpp"
#include "scenario/scenario.hpp"
#include "workload/megatron_arguments.hpp"

namespace zs::planner {

/// What the operator chooses that no policy decides.
struct PlanOptions {
  std::string job_name = "zettasim-plan";
  std::string partition;                   ///< empty: the cluster's default partition
  std::string time_limit;                  ///< Slurm's --time ("2-00:00:00"); empty: the partition's limit
  std::string script = "pretrain_gpt.py";  ///< the training script torchrun runs
  bool torchrun = true;                    ///< torchrun per node (false: srun starts one task per rank)
  /// Usable nodes held back in the allocation for restarts; unset: the reliability section's spare units
  /// ("spares": {"units": N}) in whole nodes, else none.
  std::optional<uint32_t> spare_nodes;
  /// Seconds one iteration takes, when a prediction gives it: --save-interval is then written.
  std::optional<double> iteration_time;
};

/// Where one rank runs.
struct RankSlot {
  std::string host;
  uint32_t gpu = 0;                   ///< the GPU's index on its host (nvidia-smi, CUDA_VISIBLE_DEVICES)
  std::vector<uint32_t> coordinates;  ///< along the mesh's axes
};

/// The algorithm the collective policy chooses for one collective size on one communicator.
struct CollectiveChoice {
  std::string communicator;
  std::string kind;  ///< all-reduce, all-gather, ...
  double bytes = 0;  ///< buffer per rank, B
  uint32_t members = 0;
  std::string algorithm;  ///< as the policy names it ("auto:ring")
  std::string nccl;       ///< the NCCL algorithm it is, as NCCL_ALGO names it ("Ring"); empty for all-to-all
};

/// The checkpoint interval from the recovery policy's rule.
struct CheckpointChoice {
  std::string rule;     ///< "daly", "young" or the fixed interval
  double mtbf = 0;      ///< the job's mean time between failures, s
  double cost = 0;      ///< writing one checkpoint, s
  double state = 0;     ///< what a checkpoint holds, B
  double interval = 0;  ///< work between checkpoints, s
  std::string why;      ///< how mtbf and cost were found
};

/// Every decision and the policy that made it.
struct JobPlan {
  std::string scenario;
  std::string machine;
  std::string placement_policy;
  std::string placement_layout;  ///< what the policy chose and why
  policy::Placement placement;
  std::vector<std::string> axes;  ///< mesh axis names
  std::vector<RankSlot> ranks;
  std::vector<std::string> hosts;        ///< hosts the ranks use, in order of their first rank
  uint32_t gpus_per_host = 0;            ///< the most ranks on one host
  std::vector<std::string> spare_hosts;  ///< held back, in the allocation but not in the hostfile
  std::string spares_why;                ///< where their count comes from
  std::string collective_policy;
  std::vector<CollectiveChoice> collectives;
  std::vector<std::pair<std::string, std::string>> nccl_environment;
  std::string nccl_why;
  std::optional<CheckpointChoice> checkpoint;
  std::vector<workload::MegatronArgument> megatron;
  std::vector<std::string> unmapped;  ///< workload keys no Megatron argument expresses
  long long save_interval = 0;        ///< iterations, 0 without a prediction or checkpoint
  nlohmann::json left_out;            ///< nodes of the inventory a job may not use
  PlanOptions options;
};

/// Throws core::InputError naming the option when a value Slurm reads is not in its grammar
/// (core/slurm_values.hpp): the job name, partition and time limit.
void check_plan_options(const PlanOptions& options);

/// The scenario as the NCCL job zettasim plan lays out: the collective library's per-step and
/// per-collective latencies charged (the machine's step_latency, NCCL's measured values in the link
/// models) and `auto` choosing only among the algorithms NCCL implements
/// (CollectiveOptions::algorithms); its resolved configuration records both. Call it before
/// predicting, so that the prediction is of the job as it runs (make_job_plan makes its choices for the
/// NCCL job whether or not the scenario has been made one).
void make_nccl_job(scenario::Scenario& s);

/// Plans the scenario's job (a megatron workload) on its machine: the placement policy's rank order, the
/// collective policy's algorithm for every distinct collective (communicator, kind, size) of the trace on
/// rank 0's group, the NCCL environment those imply, the recovery policy's checkpoint interval when the
/// scenario has a reliability section (MTBF from its failure table over the job's units and hosts, and
/// over every active link for fabric components; cost from its checkpoint store), spare hosts, and the
/// Megatron-LM arguments. Throws core::InputError naming the scenario file when the workload is not a
/// megatron job, the machine's units are not cluster GPUs ("HOST/gpuN"), the mesh cannot be laid on the
/// machine, fewer usable hosts remain for the spares than asked, or the collective policy picks, for a
/// collective NCCL chooses an algorithm for, one NCCL does not implement.
JobPlan make_job_plan(const scenario::Scenario& s, const PlanOptions& options,
                      const policy::PolicyCatalog& policies = {});

/// Sets --save-interval from a predicted iteration time (s): the checkpoint interval over it, at least 1;
/// nothing without a checkpoint decision. `job` is the scenario's (Scenario::megatron).
void apply_iteration_time(JobPlan& plan, double iteration_time, const workload::MegatronJob& job);

/// Every rank: its number, host, GPU index and mesh coordinates (ranks.json, and plan.json's "ranks").
nlohmann::json ranks_json(const JobPlan& plan);

/// plan.json: every decision, the policy that made it and why.
nlohmann::json plan_json(const JobPlan& plan);

}  // namespace zs::planner
