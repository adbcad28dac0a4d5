// Turns a scenario's "workload" section into a trace through the generator it names (one explicit list).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/registry.hpp"
#include "core/units.hpp"
#include "workload/collective_benchmark.hpp"
#include "workload/megatron_arguments.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/stack_costs.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {

struct BuiltWorkload {
  workload::Trace trace;
  /// For the collective benchmark: what its bus bandwidth is computed from; absent for training jobs.
  std::optional<workload::CollectiveBenchmark> benchmark = std::nullopt;
  nlohmann::json derived;      ///< what follows from the plan (micro-batches per iteration)
  core::Bytes state_per_rank;  ///< model state of the most loaded rank (16 B per parameter held)
  std::string summary;         ///< one line for reports
  /// The megatron generator's model and plan, as Megatron-LM's arguments are written from; absent for others.
  std::optional<workload::MegatronJob> megatron = std::nullopt;
  /// Lines for reports: what the section's Megatron-LM arguments left out or had set over them.
  std::vector<std::string> notes = {};
};

/// What a generator builds from besides its plan keys.
struct GeneratorInputs {
  /// The section's transformer model; nullptr when the section names none (a generator that needs one
  /// refuses that, one that takes none refuses a model).
  const workload::TransformerSpec* model;
  const core::FileSource& files;  ///< reads files the plan refers to, relative to plan.file()
  uint64_t max_ops;               ///< the most ops the trace may hold (an input error past it)
  uint64_t machine_units;         ///< units of the scenario's machine
  /// The section's software stack's costs (its "software_stack"); nullptr when it names none.
  const workload::StackCosts* stack = nullptr;
};

/// A workload generator: reads its plan keys from `plan` (its registry entry's table, type
/// "workload.NAME"; a workload section holds workload_section_params()'s too), checks them against the
/// model, calls plan.finish() (so that a misspelt key is refused before any work) and generates the
/// trace.
using WorkloadGenerator = std::function<BuiltWorkload(core::ParamReader& plan, const GeneratorInputs& in)>;
using WorkloadGeneratorRegistry = core::Registry<WorkloadGenerator>;

/// The built-in generators (family "workload generator"): "ideal-data-parallel" (data_parallel, micro_batch,
/// global_batch), "megatron" (Megatron-Core's 5D parallelism: workload::ParallelPlan's keys) and
/// "collective" (one collective, no model: workload::CollectiveBenchmark's keys).
WorkloadGeneratorRegistry builtin_workload_generators();

/// The keys of a generated workload section besides its generator's: "generator" and "model" (every
/// generator but "collective" needs a model).
const core::ParamTable& workload_section_params();

/// The generator named `name` in `generators`; an unknown name is an input error at `at`'s
/// "generator" listing the known ones.
const WorkloadGeneratorRegistry::Entry& find_workload_generator(const std::string& name,
                                                                const core::JsonObject& at,
                                                                const WorkloadGeneratorRegistry& generators);

}  // namespace zs::scenario
