// The reports of `zettasim trace`: what an import assumed, and a trace's totals.
#include "output/trace_report.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "output/text_columns.hpp"

namespace zs::output {

namespace {

/// "2 listed groups: 0 3, 4 7" (at most four groups shown).
std::string listed_groups(const std::vector<std::vector<uint64_t>>& groups) {
  std::string out =
      std::to_string(groups.size()) + (groups.size() == 1 ? " listed group: " : " listed groups: ");
  for (size_t g = 0; g < std::min<size_t>(groups.size(), 4); ++g) {
    out += g == 0 ? "" : ", ";
    for (size_t k = 0; k < groups[g].size(); ++k) out += (k == 0 ? "" : " ") + std::to_string(groups[g][k]);
  }
  return out + (groups.size() > 4 ? ", ..." : "");
}

}  // namespace

/// The import's one-line account of what it did and what it assumed.
std::string import_summary(const chakra::ChakraImportReport& r) {
  const std::string version =
      r.chakra_version.empty() ? "Chakra (schema version not stated)" : "Chakra " + r.chakra_version;
  std::string line = version + ", " + std::to_string(r.ranks) + " ranks, " + std::to_string(r.nodes) +
                     " nodes" +
                     (r.zettasim_metadata ? ", written by zettasim (mesh, roles and streams restored)" : "");
  if (r.cpu_nodes_skipped > 0)
    line += "; skipped " + std::to_string(r.cpu_nodes_skipped) + " CPU nodes (" +
            core::display(core::Seconds(r.cpu_skipped_seconds)) + " of host time, not modelled)";
  if (r.metadata_nodes_skipped > 0)
    line += "; skipped " + std::to_string(r.metadata_nodes_skipped) + " metadata nodes";
  if (r.assumed_bf16 > 0)
    line += "; " + std::to_string(r.assumed_bf16) + " compute nodes state no tensor type: taken as bf16";
  if (r.assumed_matrix > 0)
    line += "; " + std::to_string(r.assumed_matrix) +
            " compute nodes of an op not known as matrix or vector work: taken as matrix work";
  if (r.measured_durations > 0)
    line +=
        "; " + std::to_string(r.measured_durations) + " compute nodes replayed at their measured duration";
  if (!r.comm_groups.empty()) line += "; process groups from " + r.comm_groups;
  for (const auto& listed : r.listed_groups)
    line +=
        "; groups " + listed + " are not the axes of a mesh: replayed as listed groups, exact fidelity only";
  return line;
}

std::string trace_inspection(const workload::Trace& t, const chakra::ChakraImportReport* imported) {
  const bool foreign = imported != nullptr && !imported->zettasim_metadata;
  std::ostringstream out;
  const uint64_t ranks = t.mesh.size();

  std::string mesh;
  for (const auto& a : t.mesh.axes())
    mesh += (mesh.empty() ? "" : " x ") + a.name + " " + std::to_string(a.size);
  out << "trace \"" << t.name << "\" (format version " << workload::Trace::kFormatVersion << ")\n";
  out << "  mesh                  " << mesh << " = " << ranks << " ranks\n";
  for (const auto& c : t.communicators) {
    std::string over;
    for (const auto& a : c.axes) over += (over.empty() ? "over " : " x ") + a;
    if (!c.groups.empty()) over = listed_groups(c.groups);
    const std::string label = "communicator " + c.name;
    out << "  " << column(label, 22) << over << "\n";
  }
  out << "  roles                 " << t.roles.size()
      << (t.role_axis.empty() ? "" : " (one per " + t.role_axis + ")") << "\n";

  std::map<std::string, double> op_counts, comm_bytes, comm_calls, rank_calls;
  double flops = 0, memory_moved = 0, p2p_bytes = 0;
  const double n = double(t.ranks_per_role());            // each op runs on every rank of its role
  std::vector<uint64_t> rank_of_role(t.roles.size(), 0);  // a rank running each role
  if (t.has_explicit_groups())
    for (uint64_t r = t.mesh.size(); r-- > 0;) rank_of_role[t.role_of(r)] = r;
  for (size_t role_index = 0; role_index < t.roles.size(); ++role_index)
    for (const auto& op : t.roles[role_index].ops) {
      if (const auto* c = std::get_if<workload::ComputeOp>(&op.body)) {
        op_counts["compute"] += n;
        flops += c->flops.value() * n;
      } else if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
        op_counts["collective"] += n;
        const std::string key = c->communicator + " " + std::string(workload::to_string(c->kind));
        comm_bytes[key] += c->bytes.value() * n;
        rank_calls[key] += n;
        // validate() holds every issuing rank in a group of a listed communicator.
        comm_calls[key] += n / double(t.groups_of(c->communicator)->size(rank_of_role[role_index]));
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
  out << "  FLOPs per iteration   " << core::display(core::Flops(flops));
  if (foreign)
    out << " executed (model FLOPs unknown: the trace does not state them)\n";
  else
    out << " executed (model: " << core::display(t.model_flops) << ", ratio "
        << format_number(flops / std::max(t.model_flops.value(), 1.0)) << ": recomputation, optimizer)\n";
  out << "  tokens per iteration  "
      << (foreign || t.tokens_per_iteration <= 0 ? std::string("unknown (the trace does not state them)")
                                                 : format_number(t.tokens_per_iteration))
      << "\n";
  out << "  collectives (buffer S summed over ranks; calls, each over its whole group, and calls summed "
         "over ranks)\n";
  for (const auto& [key, bytes] : comm_bytes)
    out << "    " << column(key, 28) << core::display(core::Bytes(bytes)) << " in "
        << format_number(comm_calls[key]) << " calls (" << format_number(rank_calls[key]) << " rank-calls)\n";
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
  return out.str();
}

}  // namespace zs::output
