// The trace a file stands for: a trace file (JSON or CBOR), a scenario's workload, a model file under a
// parallel plan, or a Chakra trace prefix (imported).
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "chakra/chakra_export.hpp"
#include "chakra/chakra_import.hpp"
#include "core/file_source.hpp"
#include "workload/trace.hpp"

namespace zs::study {

/// How to generate a trace from a model file (kind "transformer").
struct TraceGeneration {
  std::string generator = "megatron";
  nlohmann::json plan = nlohmann::json::object();  ///< the plan's keys, as a scenario's workload has them
  std::string plan_source = "--parallel";          ///< names the plan in input errors
};

struct TraceInput {
  workload::Trace trace;
  std::optional<chakra::ChakraImportReport> imported;  ///< when read from Chakra files: what was assumed
  /// When read from a scenario: each compute op's time on the unit the scenario's placement gives its
  /// rank (engine::op_duration on that unit's model), for a Chakra export's duration_micros; else empty.
  chakra::ComputeTime compute_time = {};
};

/// Reads `path` from `files`. `generation` (null: a model file is refused) turns a model file into a
/// trace; a plan given with a scenario or a Chakra trace, which carry their own, is an input error.
/// `comm_groups`, not empty: the communicator-group file of a Chakra trace's process groups
/// (chakra::import_chakra); given with any other input, an input error.
TraceInput read_trace_input(const core::FileSource& files, const std::string& path,
                            const TraceGeneration* generation, const std::string& comm_groups = "");

}  // namespace zs::study
