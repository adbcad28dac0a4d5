// Writing a job plan as files Slurm, torchrun and Megatron-LM take as they are.
#include "planner/plan_folder.hpp"

#include <sstream>

#include "core/input_error.hpp"
#include "core/shell_words.hpp"
#include "core/slurm_values.hpp"
#include "core/staged_directory.hpp"
#include "core/units.hpp"
#include "core/version.hpp"
#include "inventory/hostlist.hpp"

namespace zs::planner {
namespace {

using core::comment_text;
using core::shell_quoted;

/// The allocation's hosts as one hostlist expression, each name checked against Slurm's grammar first
/// (a name from any machine file reaches #SBATCH and srun lines).
std::string checked_hostlist(const std::vector<std::string>& hosts) {
  for (const auto& h : hosts) core::require_slurm_value(core::host_name_problem(h), h, "plan", "/hosts");
  return inventory::compress_hostlist(hosts);
}

/// Refuses an environment variable or Megatron-LM flag a script cannot hold as written (a plugin's
/// policy names them).
void check_script_names(const JobPlan& plan) {
  for (const auto& [k, v] : plan.nccl_environment)
    if (!core::is_variable_name(k))
      throw core::InputError("plan", "/nccl_environment", "expected a variable name, got \"" + k + "\"");
  for (const auto& [flag, value] : plan.megatron)
    if (!core::is_long_option(flag))
      throw core::InputError("plan", "/megatron_arguments", "expected a long option, got \"" + flag + "\"");
}

/// A hostlist cut to about `width` characters for the terminal (the files hold it whole).
std::string shortened(const std::string& hostlist, size_t width = 60) {
  if (hostlist.size() <= width) return hostlist;
  const size_t comma = hostlist.rfind(',', width);
  const std::string head = hostlist.substr(0, comma == std::string::npos ? width : comma);
  const bool in_bracket = head.rfind('[') != std::string::npos &&
                          (head.rfind(']') == std::string::npos || head.rfind(']') < head.rfind('['));
  return head + (in_bracket ? ",...]" : ",...");
}

}  // namespace

bool torchrun_reproduces(const JobPlan& plan) {
  const uint32_t per_host = plan.gpus_per_host;
  for (size_t r = 0; r < plan.ranks.size(); ++r)
    if (per_host == 0 || plan.ranks[r].host != plan.hosts[r / per_host] || plan.ranks[r].gpu != r % per_host)
      return false;
  return plan.ranks.size() == plan.hosts.size() * per_host;
}

std::string hostfile_text(const JobPlan& plan) {
  std::string out;
  for (const auto& r : plan.ranks) out += r.host + "\n";
  return out;
}

std::string ranks_json_text(const JobPlan& plan) {
  return ranks_json(plan).dump(1) + "\n";
}

std::string launch_script(const JobPlan& plan) {
  const auto& o = plan.options;
  check_plan_options(o);
  check_script_names(plan);
  std::vector<std::string> allocation = plan.hosts;
  allocation.insert(allocation.end(), plan.spare_hosts.begin(), plan.spare_hosts.end());
  std::ostringstream s;
  s << "#!/bin/bash\n";
  s << "# Written by zettasim " << core::kVersion << " plan for scenario " << comment_text(plan.scenario)
    << " on " << comment_text(plan.machine) << ": " << plan.ranks.size() << " ranks on " << plan.hosts.size()
    << " nodes";
  if (!plan.spare_hosts.empty()) s << " and " << plan.spare_hosts.size() << " spare nodes";
  s << ".\n";
  // sbatch reads #SBATCH lines with its own word splitter: each value is in its grammar (checked above),
  // so it is one word with nothing to quote.
  s << "#SBATCH --job-name=" << o.job_name << "\n";
  s << "#SBATCH --nodes=" << allocation.size() << "\n";
  s << "#SBATCH --nodelist=" << checked_hostlist(allocation) << "\n";
  const bool torchrun = o.torchrun && torchrun_reproduces(plan);
  if (torchrun)
    s << "#SBATCH --ntasks-per-node=1\n";
  else
    s << "#SBATCH --ntasks=" << plan.ranks.size() << "\n";
  s << "#SBATCH --gpus-per-node=" << plan.gpus_per_host << "\n";
  s << "#SBATCH --exclusive\n";
  if (!o.partition.empty()) s << "#SBATCH --partition=" << o.partition << "\n";
  if (!o.time_limit.empty()) s << "#SBATCH --time=" << o.time_limit << "\n";
  s << "set -euo pipefail\n";
  s << "# Submit from this folder (cd PLAN && sbatch launch.sbatch): the hostfile is read from there.\n";
  s << "PLAN_DIR=\"${SLURM_SUBMIT_DIR:-$PWD}\"\n";
  s << "TRAINING_SCRIPT=" << shell_quoted(o.script) << "\n\n";
  s << "# The collective policy's choices (plan.json: collectives).\n";
  for (const auto& [k, v] : plan.nccl_environment) s << "export " << k << "=" << shell_quoted(v) << "\n";
  s << "\nMEGATRON_ARGS=(\n";
  for (const auto& [flag, value] : plan.megatron)
    s << "  " << flag << (value.empty() ? "" : " " + shell_quoted(value)) << "\n";
  s << ")\n";
  for (const auto& u : plan.unmapped)
    s << "# not expressed as a Megatron-LM argument: " << comment_text(u) << "\n";
  if (plan.checkpoint) {
    s << "# Checkpoints are saved to, and a restart resumes from, CHECKPOINT_DIR (set it for the job).\n";
    s << "CHECKPOINT_DIR=\"${CHECKPOINT_DIR:?set CHECKPOINT_DIR to the folder checkpoints are saved to and "
         "loaded from}\"\n";
    s << "MEGATRON_ARGS+=(--save \"$CHECKPOINT_DIR\" --load \"$CHECKPOINT_DIR\")\n";
  }
  if (plan.checkpoint && plan.save_interval == 0)
    s << "# checkpoint every " << static_cast<long long>(plan.checkpoint->interval)
      << " s of work (plan.json); --save-interval needs the predicted iteration time (zettasim plan "
         "--predict)\n";
  s << "\n# The hostfile: rank r's host on line r+1 (ranks.json: its GPU and mesh coordinates).\n";
  s << "export SLURM_HOSTFILE=\"$PLAN_DIR/hostfile\"\n";
  if (torchrun) {
    s << "# One torchrun per node: node n holds ranks n*" << plan.gpus_per_host << " on, rank r on GPU r mod "
      << plan.gpus_per_host << ", as the hostfile and ranks.json say. srun starts one task on each node of\n"
      << "# --nodelist; the hostfile gives the master's address (rank 0's host).\n";
    s << "MASTER_ADDR=$(head -n 1 \"$SLURM_HOSTFILE\")\n";
    s << "srun --nodes=" << plan.hosts.size() << " --ntasks=" << plan.hosts.size()
      << " --ntasks-per-node=1 --nodelist=" << checked_hostlist(plan.hosts) << " \\\n";
    s << "  torchrun --nnodes=" << plan.hosts.size() << " --nproc-per-node=" << plan.gpus_per_host
      << " --node-rank=\"$SLURM_NODEID\" \\\n";
    s << "    --rdzv-backend=static --master-addr=\"$MASTER_ADDR\" --master-port=29500 \\\n";
    s << "    \"$TRAINING_SCRIPT\" \"${MEGATRON_ARGS[@]}\" \"$@\"\n";
  } else {
    s << "# One task per rank, on the host its hostfile line names (srun --distribution=arbitrary reads\n"
         "# SLURM_HOSTFILE); the placement is not torchrun's order, so each rank takes its GPU from "
         "ranks.json.\n";
    s << "GPU_OF_RANK=(";
    for (size_t r = 0; r < plan.ranks.size(); ++r) s << (r ? " " : "") << plan.ranks[r].gpu;
    s << ")\n";
    s << "export GPU_OF_RANK_LIST=\"${GPU_OF_RANK[*]}\" TRAINING_SCRIPT\n";
    s << "srun --ntasks=" << plan.ranks.size() << " --distribution=arbitrary bash -c '\n";
    s << "  GPUS=($GPU_OF_RANK_LIST)\n";
    s << "  export RANK=$SLURM_PROCID WORLD_SIZE=$SLURM_NTASKS LOCAL_RANK=${GPUS[$SLURM_PROCID]}\n";
    s << "  export MASTER_ADDR=$(head -n 1 \"$SLURM_HOSTFILE\") MASTER_PORT=29500\n";
    s << "  exec python3 \"$TRAINING_SCRIPT\" \"$@\"' _ \"${MEGATRON_ARGS[@]}\" \"$@\"\n";
  }
  return s.str();
}

std::vector<std::pair<std::string, std::string>> plan_files(const JobPlan& plan,
                                                            const nlohmann::json& plan_doc) {
  return {{"hostfile", hostfile_text(plan)},
          {"ranks.json", ranks_json_text(plan)},
          {"launch.sbatch", launch_script(plan)},
          {"plan.json", plan_doc.dump(1) + "\n"}};
}

std::string plan_summary(const JobPlan& plan) {
  std::ostringstream s;
  s << "zettasim " << core::kVersion << " plan: scenario \"" << plan.scenario << "\" on " << plan.machine
    << "\n";
  s << "  ranks                     " << plan.ranks.size() << " on " << plan.hosts.size() << " nodes ("
    << shortened(inventory::compress_hostlist(plan.hosts)) << "), " << plan.gpus_per_host << " per node\n";
  s << "  placement                 " << plan.placement_policy
    << (plan.placement_layout.empty() ? "" : ": " + plan.placement_layout) << "\n";
  s << "  spare nodes               "
    << (plan.spare_hosts.empty() ? "none" : shortened(inventory::compress_hostlist(plan.spare_hosts)))
    << "\n";
  s << "  left out                  " << plan.left_out.size() << " nodes (drained, down or without GPUs)\n";
  std::string algorithms;
  for (const auto& c : plan.collectives) {
    const std::string named = c.algorithm + (c.nccl.empty() ? "" : " (" + c.nccl + ")");
    if (algorithms.find(named) == std::string::npos) algorithms += (algorithms.empty() ? "" : ", ") + named;
  }
  s << "  collectives               " << plan.collective_policy
    << " among NCCL's algorithms, with NCCL's latencies: " << plan.collectives.size()
    << " distinct (communicator, kind, size), chose " << (algorithms.empty() ? "none" : algorithms) << "\n";
  std::string env;
  for (const auto& [k, v] : plan.nccl_environment) env += (env.empty() ? "" : " ") + k + "=" + v;
  s << "  NCCL environment          " << (env.empty() ? "none set" : env) << "\n";
  if (plan.checkpoint) {
    s << "  checkpoint interval       " << core::display(core::Seconds(plan.checkpoint->interval)) << " ("
      << plan.checkpoint->rule << ", MTBF " << core::display(core::Seconds(plan.checkpoint->mtbf))
      << ", cost " << core::display(core::Seconds(plan.checkpoint->cost)) << ")";
    if (plan.save_interval > 0) s << ": --save-interval " << plan.save_interval;
    s << "\n";
  }
  s << "  launcher                  "
    << (plan.options.torchrun && torchrun_reproduces(plan) ? "torchrun, one per node"
                                                           : "srun, one task per rank")
    << "\n";
  return s.str();
}

void write_plan_folder(const std::filesystem::path& dir,
                       const std::vector<std::pair<std::string, std::string>>& files, bool force) {
  core::write_staged_folder(dir, files, force ? core::Replace::kForce : core::Replace::kOwnOutput,
                            "plan folder");
}

}  // namespace zs::planner
