// `zettasim trace gen` and `zettasim trace inspect`: write a generated trace, summarize a trace.
#pragma once

#include <ostream>
#include <string>

namespace zs::cli {

struct TraceGenOptions {
  std::string input;  ///< a model file (kind "transformer"), a scenario, a trace or a Chakra prefix
  std::string generator = "megatron";
  std::string parallel;  ///< "key=value,..." plan keys, with a model file
  std::string out;       ///< the trace file to write; default <trace name>.trace.json
};

/// Generates the trace and writes it atomically; prints one line saying where. Input errors throw
/// core::InputError ("--parallel" is the file name of errors in the plan).
int generate_trace_file(const TraceGenOptions& opt, std::ostream& out);

/// Writes a trace (file, scenario or Chakra prefix) as Chakra files "<out_dir>/<trace name>.<rank>.et",
/// atomically (the folder appears complete or not at all; an earlier export there is replaced, another
/// folder only with `force`).
int export_chakra_files(const std::string& input, const std::string& out_dir, bool force, std::ostream& out);

/// Prints a trace's totals: ranks and roles, op counts, FLOPs, bytes per communicator, memory per role.
/// `input` is a trace file or a scenario (whose workload is generated).
int inspect_trace(const std::string& input, std::ostream& out);

}  // namespace zs::cli
