// The folder an operator submits: hostfile, ranks.json, launch.sbatch and plan.json.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "planner/job_plan.hpp"

namespace zs::planner {

/// Whether torchrun's numbering (node n holds ranks n*g to n*g+g-1, rank r on local GPU r mod g) is the
/// plan's placement; otherwise the script starts one task per rank with srun.
bool torchrun_reproduces(const JobPlan& plan);

/// One host per line per rank, in rank order (SLURM_HOSTFILE for srun --distribution=arbitrary).
std::string hostfile_text(const JobPlan& plan);

/// ranks.json: rank → host, GPU index, mesh coordinates.
std::string ranks_json_text(const JobPlan& plan);

/// launch.sbatch: #SBATCH header (nodes and their list, tasks, GPUs per node, time and partition when
/// given), the NCCL environment, and srun starting torchrun on every node with the Megatron-LM arguments
/// (or, without torchrun, one task per rank in the hostfile's order).
std::string launch_script(const JobPlan& plan);

/// The four files, in the order they are written.
std::vector<std::pair<std::string, std::string>> plan_files(const JobPlan& plan,
                                                            const nlohmann::json& plan_doc);

/// What the plan decided, a few lines for the terminal.
std::string plan_summary(const JobPlan& plan);

/// Writes the files into `dir` as one atomic swap (core::StagedDirectory; an existing folder is replaced
/// only when zettasim wrote it, or with `force`).
void write_plan_folder(const std::filesystem::path& dir,
                       const std::vector<std::pair<std::string, std::string>>& files, bool force);

}  // namespace zs::planner
