// Turns a scenario's "workload" section into a trace through the generator it names (one explicit list).
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/registry.hpp"
#include "core/units.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {

struct BuiltWorkload {
  workload::Trace trace;
  nlohmann::json plan;         ///< the resolved parallel plan
  core::Bytes state_per_rank;  ///< model state of the most loaded rank (16 B per parameter held)
  std::string summary;         ///< one line for reports
};

/// A workload generator: reads its plan keys from `work` (not "generator" or "model"), checks them
/// against the model, calls work.finish() (so that a misspelt key is refused before any work) and generates
/// the trace of at most `max_ops` ops (an input error at `work` past it).
/// `files` reads files the plan refers to (a routing histogram_file), relative to work.file().
using WorkloadGenerator =
    std::function<BuiltWorkload(core::JsonObject& work, const workload::TransformerSpec& model,
                                const core::FileSource& files, uint64_t max_ops)>;
using WorkloadGeneratorRegistry = core::Registry<WorkloadGenerator>;

/// The built-in generators (family "workload generator"): "data-parallel" (data_parallel, micro_batch,
/// global_batch) and "megatron" (Megatron-Core's 5D parallelism: workload::ParallelPlan's keys).
WorkloadGeneratorRegistry builtin_workload_generators();

/// The workload of the generator named `generator` in `generators`; an unknown name is an input error at
/// work's "generator" listing the known ones.
BuiltWorkload build_workload(const std::string& generator, core::JsonObject& work,
                             const workload::TransformerSpec& model, const core::FileSource& files,
                             const WorkloadGeneratorRegistry& generators = builtin_workload_generators(),
                             uint64_t max_ops = workload::kMaxGeneratedOps);

}  // namespace zs::scenario
