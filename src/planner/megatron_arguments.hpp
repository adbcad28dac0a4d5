// Megatron-LM command-line arguments for a planned job, from the resolved workload.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace zs::planner {

/// One argument: the flag and its value (empty for a switch such as --sequence-parallel).
using MegatronArgument = std::pair<std::string, std::string>;

/// The Megatron-LM argument names the planner writes, transcribed from megatron/training/arguments.py
/// of github.com/NVIDIA/Megatron-LM (its argument groups _add_network_size_args, _add_training_args,
/// _add_distributed_args, _add_checkpointing_args, _add_mixed_precision_args and _add_moe_args). Tests
/// check every written flag against it.
const std::vector<std::string>& megatron_argument_names();

/// A megatron job's workload as config.json holds it ("/workload": its "model" and plan keys) with the
/// values the plan derives ("/derived/workload": micro-batches, the gradients' dtype) laid over it.
nlohmann::json workload_with_derived(const nlohmann::json& config);

/// The arguments for a workload given by workload_with_derived: parallel sizes, batch, recomputation,
/// optimizer sharding and the model shape; `save_interval` (iterations) adds --save-interval when > 0.
/// `unmapped` receives the model and plan keys with values that no argument expresses (the launch script says
/// so).
std::vector<MegatronArgument> megatron_arguments(const nlohmann::json& workload, long long save_interval,
                                                 std::vector<std::string>& unmapped);

}  // namespace zs::planner
