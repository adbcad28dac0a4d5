// Turns a scenario's "workload" section into a trace through the generator it names (one explicit list).
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/registry.hpp"
#include "core/units.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {

struct BuiltWorkload {
  workload::Trace trace;
  nlohmann::json derived;      ///< what follows from the plan (micro-batches per iteration)
  core::Bytes state_per_rank;  ///< model state of the most loaded rank (16 B per parameter held)
  std::string summary;         ///< one line for reports
};

/// A workload generator: reads its plan keys from `plan` (its registry entry's table, type
/// "workload.NAME"; a workload section holds workload_section_params()'s too), checks them against the
/// model, calls plan.finish() (so that a misspelt key is refused before any work) and generates the
/// trace of at most `max_ops` ops (an input error at the plan past it). `files` reads files the plan
/// refers to (a routing histogram_file), relative to plan.file().
using WorkloadGenerator =
    std::function<BuiltWorkload(core::ParamReader& plan, const workload::TransformerSpec& model,
                                const core::FileSource& files, uint64_t max_ops)>;
using WorkloadGeneratorRegistry = core::Registry<WorkloadGenerator>;

/// The built-in generators (family "workload generator"): "data-parallel" (data_parallel, micro_batch,
/// global_batch) and "megatron" (Megatron-Core's 5D parallelism: workload::ParallelPlan's keys).
WorkloadGeneratorRegistry builtin_workload_generators();

/// The keys of a generated workload section besides its generator's: "generator" and "model".
const core::ParamTable& workload_section_params();

/// The generator named `name` in `generators`; an unknown name is an input error at `at`'s
/// "generator" listing the known ones.
const WorkloadGeneratorRegistry::Entry& find_workload_generator(const std::string& name,
                                                                const core::JsonObject& at,
                                                                const WorkloadGeneratorRegistry& generators);

}  // namespace zs::scenario
