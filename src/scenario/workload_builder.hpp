// Turns a scenario's "workload" section into a trace through the generator it names (one explicit list).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/units.hpp"
#include "workload/trace.hpp"
#include "workload/transformer_spec.hpp"

namespace zs::scenario {

struct BuiltWorkload {
  workload::Trace trace;
  nlohmann::json plan;         ///< the resolved parallel plan
  core::Bytes state_per_rank;  ///< model state of the most loaded rank (16 B per parameter held)
  std::string summary;         ///< one line for reports
};

/// Generators: "data-parallel" (data_parallel, micro_batch, global_batch) and "megatron"
/// (data_parallel, tensor_parallel, pipeline_parallel, micro_batch, global_batch, schedule).
/// Reads the plan keys from `work` (not "generator" or "model") and checks them against the model.
/// `files` reads files the plan refers to (a routing histogram_file), relative to work.file().
BuiltWorkload build_workload(const std::string& generator, core::JsonObject& work,
                             const workload::TransformerSpec& model, const core::FileSource& files);

}  // namespace zs::scenario
