// Trace generation and inspection commands.
#include "cli/trace_commands.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "chakra/chakra_export.hpp"
#include "chakra/chakra_import.hpp"
#include "cli/text_columns.hpp"
#include "core/file_name.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "output/atomic_file.hpp"
#include "output/staged_directory.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/workload_builder.hpp"
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

/// The import's one-line account of what it did and what it assumed.
std::string describe_import(const chakra::ChakraImportReport& r) {
  std::string line = "Chakra " + r.chakra_version + ", " + std::to_string(r.ranks) + " ranks, " +
                     std::to_string(r.nodes) + " nodes" +
                     (r.zettasim_metadata ? ", written by zettasim (mesh, roles and streams restored)" : "");
  if (r.cpu_nodes_skipped > 0)
    line += "; skipped " + std::to_string(r.cpu_nodes_skipped) + " CPU nodes (" +
            core::display(core::Seconds(r.cpu_skipped_seconds)) + " of host time, not modelled)";
  if (r.metadata_nodes_skipped > 0)
    line += "; skipped " + std::to_string(r.metadata_nodes_skipped) + " metadata nodes";
  if (r.assumed_bf16_matrix > 0)
    line += "; " + std::to_string(r.assumed_bf16_matrix) +
            " compute nodes taken as bf16 matrix work (num_ops FLOPs)";
  if (r.measured_durations > 0)
    line +=
        "; " + std::to_string(r.measured_durations) + " compute nodes replayed at their measured duration";
  return line;
}

workload::Trace trace_of(const std::string& path, const TraceGenOptions* gen, std::ostream* notes = nullptr) {
  core::DiskFileSource files;
  const auto bytes = files.read(path);
  if (!bytes && chakra::chakra_trace_exists(path, files)) {
    if (gen != nullptr && !gen->parallel.empty())
      throw core::InputError("--parallel", "",
                             "a Chakra trace carries its own plan; --parallel goes with a model file");
    auto imported = chakra::import_chakra(path, files);
    if (notes != nullptr) *notes << "imported: " << describe_import(imported.report) << "\n";
    return std::move(imported.trace);
  }
  if (!bytes)
    throw core::InputError(path, "",
                           "cannot read file (missing or unreadable; a Chakra trace is named by its prefix, "
                           "without .<rank>.et)");
  const nlohmann::json doc = workload::parse_trace_document(*bytes, path);
  const std::string kind =
      doc.is_object() && doc.contains("kind") && doc["kind"].is_string() ? doc["kind"] : "";
  if (kind == "scenario") {
    if (gen != nullptr && !gen->parallel.empty())
      throw core::InputError("--parallel", "",
                             "a scenario carries its own plan; --parallel goes with a model file");
    return scenario::ScenarioLoader(files).load(path).trace;
  }
  if (kind == "trace") return workload::trace_from_json(doc, path);
  if (kind == "transformer" && gen != nullptr) {
    core::JsonObject model_json(doc, path, "");
    auto model = workload::TransformerSpec::from_json(model_json);
    const nlohmann::json plan = parse_parallel(gen->parallel);
    core::JsonObject plan_json(plan, "--parallel", "");
    auto built = scenario::build_workload(gen->generator, plan_json, model, files);
    plan_json.finish();
    return std::move(built.trace);
  }
  throw core::InputError(path, "/kind",
                         gen != nullptr ? "expected a model (\"transformer\") or a \"scenario\""
                                        : "expected a \"trace\" or a \"scenario\"");
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

int generate_trace_file(const TraceGenOptions& opt, std::ostream& out) {
  workload::Trace trace = trace_of(opt.input, &opt, &out);
  if (opt.out.empty())
    check_trace_name_for_files(opt.input, trace, "the default file <trace name>.trace.json; pass --out");
  const std::string path = opt.out.empty() ? trace.name + ".trace.json" : opt.out;
  try {
    const bool cbor = path.size() >= 5 && path.compare(path.size() - 5, 5, ".cbor") == 0;
    output::write_file_atomically(
        path, cbor ? workload::trace_to_cbor(trace) : workload::trace_to_json(trace).dump(1) + "\n");
  } catch (const std::runtime_error& e) {
    throw core::InputError(path, "", e.what());
  }
  size_t ops = 0;
  for (const auto& r : trace.roles) ops += r.ops.size();
  out << "trace \"" << trace.name << "\": " << trace.mesh.size() << " ranks, " << trace.roles.size()
      << " roles, " << ops << " ops, written to " << path << "\n";
  return 0;
}

int export_chakra_files(const std::string& input, const std::string& out_dir, bool force, std::ostream& out) {
  const auto replace = force ? output::Replace::kForce : output::Replace::kOwnOutput;
  output::check_replaceable(out_dir, replace);
  const workload::Trace trace = trace_of(input, nullptr);
  check_trace_name_for_files(input, trace, "the Chakra file names");
  uint64_t files = 0;
  try {
    output::StagedDirectory stage(out_dir, replace);
    files = chakra::export_chakra(trace, trace.name, [&](const std::string& name, const std::string& bytes) {
      stage.write(name, bytes);
    });
    stage.commit();
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const core::InputError*>(&e) != nullptr) throw;
    throw core::InputError(out_dir, "", e.what());
  }
  out << "trace \"" << trace.name << "\": " << files << " Chakra files written, "
      << (std::filesystem::path(out_dir) / (trace.name + ".0.et")).generic_string() << " to ." << files - 1
      << ".et (prefix " << (std::filesystem::path(out_dir) / trace.name).generic_string() << ")\n";
  return 0;
}

int inspect_trace(const std::string& input, std::ostream& out) {
  const workload::Trace t = trace_of(input, nullptr, &out);
  const uint64_t ranks = t.mesh.size();

  std::string mesh;
  for (const auto& a : t.mesh.axes())
    mesh += (mesh.empty() ? "" : " x ") + a.name + " " + std::to_string(a.size);
  out << "trace \"" << t.name << "\" (format version " << workload::Trace::kFormatVersion << ")\n";
  out << "  mesh                  " << mesh << " = " << ranks << " ranks\n";
  for (const auto& c : t.communicators) {
    std::string axes;
    for (const auto& a : c.axes) axes += (axes.empty() ? "" : " x ") + a;
    const std::string label = "communicator " + c.name;
    out << "  " << column(label, 22) << "over " << axes << "\n";
  }
  out << "  roles                 " << t.roles.size()
      << (t.role_axis.empty() ? "" : " (one per " + t.role_axis + ")") << "\n";

  std::map<std::string, double> op_counts, comm_bytes, comm_calls;
  double flops = 0, memory_moved = 0, p2p_bytes = 0;
  const double n = double(t.ranks_per_role());  // each op runs on every rank of its role
  for (const auto& role : t.roles)
    for (const auto& op : role.ops) {
      if (const auto* c = std::get_if<workload::ComputeOp>(&op.body)) {
        op_counts["compute"] += n;
        flops += c->flops.value() * n;
      } else if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
        op_counts["collective"] += n;
        const std::string key = c->communicator + " " + std::string(workload::to_string(c->kind));
        comm_bytes[key] += c->bytes.value() * n;
        comm_calls[key] += n;
      } else if (const auto* m = std::get_if<workload::MemoryOp>(&op.body)) {
        op_counts["memory move"] += n;
        memory_moved += m->bytes.value() * n;
      } else {
        const auto& p = std::get<workload::P2POp>(op.body);
        op_counts["point-to-point"] += n;
        if (p.direction == workload::P2PDirection::kSend) p2p_bytes += p.bytes.value() * n;
      }
    }
  std::string counts;
  for (const auto& [kind, n] : op_counts)
    counts += (counts.empty() ? "" : ", ") + format_number(n) + " " + kind;
  out << "  ops, all ranks        " << counts << "\n";
  out << "  FLOPs per iteration   " << core::display(core::Flops(flops))
      << " executed (model: " << core::display(t.model_flops) << ", ratio "
      << format_number(flops / std::max(t.model_flops.value(), 1.0)) << ": recomputation, optimizer)\n";
  out << "  tokens per iteration  " << format_number(t.tokens_per_iteration) << "\n";
  out << "  collectives (buffer S summed over ranks, and calls)\n";
  for (const auto& [key, bytes] : comm_bytes)
    out << "    " << column(key, 28) << core::display(core::Bytes(bytes)) << " in "
        << format_number(comm_calls[key]) << " calls\n";
  if (p2p_bytes > 0)
    out << "  " << column("point-to-point sent", 22) << core::display(core::Bytes(p2p_bytes)) << "\n";
  if (memory_moved > 0)
    out << "  " << column("memory moves", 22) << core::display(core::Bytes(memory_moved)) << "\n";
  bool any_memory = false;
  for (const auto& role : t.roles) any_memory = any_memory || role.memory.has_value();
  if (any_memory) {
    out << "  memory per rank (weights + gradients + optimizer + activations + buffers)\n";
    for (const auto& role : t.roles) {
      if (!role.memory) continue;
      const auto& f = *role.memory;
      out << "    " << column(role.name, 10) << core::display(f.total()) << " = " << core::display(f.weights)
          << " + " << core::display(f.gradients) << " + " << core::display(f.optimizer) << " + "
          << core::display(f.activations) << " + " << core::display(f.buffers) << "\n";
    }
  }
  return 0;
}

}  // namespace zs::cli
