// `zettasim trace gen`, `inspect` and `export-chakra`.
#include <cstdlib>
#include <filesystem>

#include "cli/commands.hpp"
#include "core/file_name.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/output_file.hpp"
#include "output/chakra_folder.hpp"
#include "output/output_formats.hpp"
#include "output/trace_report.hpp"
#include "study/trace_input.hpp"
#include "workload/trace_json.hpp"

namespace zs::cli {
namespace {

/// "data_parallel=8,sequence_parallel=true,schedule=1f1b" as a JSON object of plan keys.
nlohmann::json parse_parallel(const std::string& text) {
  nlohmann::json j = nlohmann::json::object();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw core::InputError("--parallel", "",
                             "expected key=value pairs separated by commas, got \"" + item + "\"");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (value == "true" || value == "false") {
      j[key] = value == "true";
    } else {
      char* rest = nullptr;
      const long long n = std::strtoll(value.c_str(), &rest, 10);
      if (!value.empty() && rest != nullptr && *rest == '\0')
        j[key] = n;
      else
        j[key] = value;
    }
    start = end + 1;
  }
  return j;
}

/// The trace `input` stands for; prints what a Chakra import assumed to `notes` when given.
workload::Trace trace_of(const core::FileSource& files, const std::string& input,
                         const study::TraceGeneration* generation, std::ostream* notes,
                         const std::string& comm_groups) {
  study::TraceInput read = study::read_trace_input(files, input, generation, comm_groups);
  if (read.imported && notes != nullptr)
    *notes << "imported: " << output::import_summary(*read.imported) << "\n";
  return std::move(read.trace);
}

/// A trace's name becomes part of file names: refuse one that is not a safe path component.
void check_trace_name_for_files(const std::string& input, const workload::Trace& trace,
                                const std::string& used_for) {
  if (auto problem = core::file_name_problem(trace.name))
    throw core::InputError(input, "",
                           "the trace name " + core::quoted_for_message(trace.name) + " is used for " +
                               used_for + " and must be " + core::kFileNameRule + ", got " + *problem);
}

}  // namespace

/// The plan a model file is generated under: --parallel's keys, and --megatron-args' file as the section's
/// "megatron_arguments" (its keys laid over the arguments).
study::TraceGeneration generation_of(const TraceGenOptions& opt, const core::FileSource& files) {
  study::TraceGeneration generation{opt.generator, parse_parallel(opt.parallel), "--parallel"};
  if (opt.megatron_args.empty()) return generation;
  const auto text = files.read(opt.megatron_args);
  if (!text) throw core::InputError(opt.megatron_args, "", "cannot read file (missing or unreadable)");
  if (generation.plan.contains("megatron_arguments"))
    throw core::InputError("--parallel", "/megatron_arguments", "goes in --megatron-args' file, not here");
  generation.plan["megatron_arguments"] = *text;
  generation.plan_source =
      "--megatron-args " + opt.megatron_args + (opt.parallel.empty() ? "" : " with --parallel");
  return generation;
}

int generate_trace_file(const TraceGenOptions& opt, std::ostream& out) {
  core::DiskFileSource files;
  const study::TraceGeneration generation = generation_of(opt, files);
  const auto output = [&](const std::string& path, std::vector<std::string> inputs) {
    return output::output_file(output::OutputFormat::kTrace, "--out", path, opt.force, std::move(inputs));
  };
  if (!opt.out.empty()) core::check_output_file(output(opt.out, {}));  // before the work; inputs below
  workload::Trace trace = trace_of(files, opt.input, &generation, &out, opt.comm_groups);
  if (opt.out.empty())
    check_trace_name_for_files(opt.input, trace, "the default file <trace name>.trace.json; pass --out");
  const std::string path = opt.out.empty() ? trace.name + ".trace.json" : opt.out;
  const bool cbor = path.size() >= 5 && path.compare(path.size() - 5, 5, ".cbor") == 0;
  core::write_output_file(
      output(path, files.files_read()),
      cbor ? workload::trace_to_cbor(trace) : workload::trace_to_json(trace).dump(1) + "\n");
  size_t ops = 0;
  for (const auto& r : trace.roles) ops += r.ops.size();
  out << "trace \"" << trace.name << "\": " << trace.mesh.size() << " ranks, " << trace.roles.size()
      << " roles, " << ops << " ops, written to " << path << "\n";
  return 0;
}

int export_chakra_files(const std::string& input, const std::string& comm_groups, const std::string& out_dir,
                        bool force, std::ostream& out) {
  const auto replace = force ? core::Replace::kForce : core::Replace::kOwnOutput;
  core::check_replaceable(out_dir, replace);
  core::DiskFileSource sources;
  const study::TraceInput read = study::read_trace_input(sources, input, nullptr, comm_groups);
  const workload::Trace& trace = read.trace;
  core::CommandOutputs(sources.files_read()).add_folder("--out", out_dir);
  check_trace_name_for_files(input, trace, "the Chakra file names");
  const uint64_t files = output::write_chakra_folder(trace, out_dir, replace, read.compute_time);
  out << "trace \"" << trace.name << "\": " << files << " Chakra files written, "
      << (std::filesystem::path(out_dir) / (trace.name + ".0.et")).generic_string() << " to ." << files - 1
      << ".et (prefix " << (std::filesystem::path(out_dir) / trace.name).generic_string() << ")\n";
  return 0;
}

int inspect_trace(const std::string& input, const std::string& comm_groups, std::ostream& out) {
  core::DiskFileSource files;
  const study::TraceInput read = study::read_trace_input(files, input, nullptr, comm_groups);
  if (read.imported) out << "imported: " << output::import_summary(*read.imported) << "\n";
  out << output::trace_inspection(read.trace, read.imported ? &*read.imported : nullptr);
  return 0;
}

}  // namespace zs::cli
