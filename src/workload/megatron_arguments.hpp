// Megatron-LM's command-line arguments and a job's model and plan, one mapping used both ways.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/parallel_plan.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::workload {

/// One argument: the flag and its value (empty for a switch such as --sequence-parallel).
using MegatronArgument = std::pair<std::string, std::string>;

/// A Megatron-LM job as the megatron generator reads it: the model and the plan laid over it.
struct MegatronJob {
  TransformerSpec model;
  ParallelPlan plan;
};

/// A job as Megatron-LM's arguments.
struct MegatronCommand {
  std::vector<MegatronArgument> arguments;
  /// The plan's and model's values that no argument expresses, each with what Megatron-LM does instead
  /// ("plan.zero_stage > 1 (Megatron shards optimizer state only)").
  std::vector<std::string> unmapped;
};

/// The arguments of `job`: parallel sizes, batch, recomputation, optimizer sharding, overlaps, fp8 and the
/// model's shape; `save_interval` (iterations) adds --save-interval when > 0.
MegatronCommand megatron_command(const MegatronJob& job, long long save_interval = 0);

/// The arguments as one line of words ("--tensor-model-parallel-size 8 --sequence-parallel ...").
std::string megatron_text(const std::vector<MegatronArgument>& arguments);

/// What an argument list says about a job.
struct MegatronReading {
  /// The plan keys the arguments set (a megatron workload section's keys): each key a flag stands for, at
  /// Megatron-LM's default where the flag is left out.
  nlohmann::json plan = nlohmann::json::object();
  /// The arguments taken but not modelled, each with why ("--lr 3.0e-4 (the optimizer's hyperparameters,
  /// no part of an iteration's time)").
  std::vector<std::string> ignored;
};

/// Reads Megatron-LM arguments (`text`: words as a launch script holds them, quoted with ' or " where a
/// value has spaces, lines joined by a trailing backslash, # comments to the end of a line; nothing is
/// expanded or run) against the job's model: the network's flags must agree with `model` (a flag left out
/// meaning Megatron-LM's default, except those a tokenizer or the model's file supplies: --vocab-size,
/// --max-position-embeddings, --seq-length and the widths of multi-latent attention). Throws
/// core::InputError at `file` and `pointer` naming the argument: one zettasim does not know, one it does
/// not model (with why), a malformed value, a flag given twice, or one that disagrees with the model.
MegatronReading read_megatron_arguments(const std::string& text, const TransformerSpec& model,
                                        const std::string& file, const std::string& pointer);

/// The keys of a megatron workload section that give `job` with Megatron-LM's arguments: "megatron_arguments"
/// (the job's, written by megatron_command) and each plan key of `section` (the section as config.json
/// resolves it) that the arguments do not give as it is, unless it is at its default and the arguments
/// leave it there; "generator" and "model" are the caller's. Read back, it is the same plan.
nlohmann::json megatron_section(const MegatronJob& job, const nlohmann::json& section);

/// The Megatron-LM argument names zettasim writes and reads, transcribed from megatron/training/arguments.py
/// of github.com/NVIDIA/Megatron-LM (its argument groups _add_network_size_args, _add_training_args,
/// _add_distributed_args, _add_checkpointing_args, _add_mixed_precision_args, _add_moe_args and
/// _add_mla_args). Tests check every written and read flag against it.
const std::vector<std::string>& megatron_argument_names();

}  // namespace zs::workload
