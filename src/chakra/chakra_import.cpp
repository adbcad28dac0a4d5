// Chakra .et files -> Trace.
#include "chakra/chakra_import.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "chakra/comm_groups.hpp"
#include "chakra/rank_converter.hpp"
#include "core/input_error.hpp"
#include "workload/trace_json.hpp"

namespace zs::chakra {
namespace {

std::string rank_file_path(const std::string& prefix, uint64_t rank) {
  return prefix + "." + std::to_string(rank) + ".et";
}

/// The zettasim attribute of a file's metadata: {"trace": header, "rank": r}, or null when absent.
nlohmann::json zettasim_header(const RankFile& f) {
  return zettasim_attribute(f.meta.attr(), f.path, "/metadata");
}

/// The index of the first op where two programs differ, or -1.
int64_t first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i)
    if (i >= a.size() || i >= b.size() || a[i] != b[i]) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace

bool chakra_trace_exists(const std::string& prefix, const core::FileSource& files) {
  return files.exists(rank_file_path(prefix, 0));
}

void refuse_rank_file_as_prefix(const std::string& path, const core::FileSource& files) {
  const size_t end = path.size() >= 3 && path.compare(path.size() - 3, 3, ".et") == 0 ? path.size() - 3 : 0;
  const size_t dot = end > 0 ? path.rfind('.', end - 1) : std::string::npos;
  if (dot == std::string::npos || dot + 1 == end || path.find_first_not_of("0123456789", dot + 1) != end ||
      !files.exists(path))
    return;
  const std::string prefix = path.substr(0, dot);
  uint64_t ranks = 0;
  while (ranks < (uint64_t(1) << 24) && files.exists(rank_file_path(prefix, ranks))) ++ranks;
  const std::string found = ranks > 0 ? prefix + ".0.et to ." + std::to_string(ranks - 1) + ".et found"
                                      : "but its first rank's file " + prefix + ".0.et is missing";
  throw core::InputError(path, "",
                         "this is one rank's file of a Chakra trace: name the trace by its prefix \"" +
                             prefix + "\" (" + found + ")");
}

namespace {

/// The ranks of a trace without zettasim's metadata: its rank files from 0 until the first missing one.
/// A later rank file (probed up to twice as far, plus 16) means a gap: refused, naming the missing file.
uint64_t count_rank_files(const std::string& prefix, const core::FileSource& files) {
  uint64_t ranks = 0;
  while (files.exists(rank_file_path(prefix, ranks))) ++ranks;
  for (uint64_t later = ranks + 1; later <= 2 * ranks + 16; ++later)
    if (files.exists(rank_file_path(prefix, later)))
      throw core::InputError(rank_file_path(prefix, ranks), "",
                             "missing, but " + rank_file_path(prefix, later) +
                                 " exists: a trace's rank files are numbered from 0 without gaps");
  return ranks;
}

}  // namespace

ChakraImport import_chakra(const std::string& prefix, const core::FileSource& files,
                           const std::string& comm_groups) {
  ChakraImport out;
  ChakraImportReport& report = out.report;
  const auto first_bytes = files.read(rank_file_path(prefix, 0));
  if (!first_bytes) refuse_rank_file_as_prefix(prefix, files);
  if (!first_bytes)
    throw core::InputError(rank_file_path(prefix, 0), "",
                           "cannot read the first rank's Chakra file (a trace is <prefix>.<rank>.et)");
  RankFile first = read_rank_file(rank_file_path(prefix, 0), *first_bytes);
  report.chakra_version = first.meta.version();
  const nlohmann::json header = zettasim_header(first);

  // zettasim's own export: restore the layout from the header (a trace with empty programs).
  std::optional<workload::Trace> layout_trace;
  Layout layout;
  if (!header.is_null()) {
    if (!header.is_object() || !header.contains("trace") || !header["trace"].is_object())
      throw core::InputError(first.path, "/metadata/attr/zettasim",
                             "expected {\"trace\": ..., \"rank\": ...}");
    nlohmann::json skeleton = header["trace"];
    if (skeleton.contains("roles") && skeleton["roles"].is_array())
      for (auto& role : skeleton["roles"])
        if (role.is_object()) role["ops"] = nlohmann::json::array();  // else trace_from_json names it
    layout_trace = workload::trace_from_json(skeleton, first.path + " (metadata)");
    layout.zettasim = &*layout_trace;
    layout.ranks = layout_trace->mesh.size();
    report.zettasim_metadata = true;
  } else {
    layout.ranks = count_rank_files(prefix, files);
  }
  report.ranks = layout.ranks;
  std::optional<CommGroups> groups;
  std::optional<GroupMesh> group_mesh;
  if (!comm_groups.empty()) {
    groups = read_comm_groups(comm_groups, files, layout.ranks);
    report.comm_groups = comm_groups;
    if (layout.zettasim == nullptr) {
      group_mesh = mesh_of_groups(*groups, layout.ranks);
      layout.groups = &*groups;
      layout.mesh = &*group_mesh;
      layout.every_rank = group_mesh->every_rank;
      report.listed_groups = group_mesh->listed;
    }
  }

  double flops = 0;
  std::vector<nlohmann::json> programs;  // per role (zettasim) or per rank (generic)
  std::vector<uint64_t> program_rank;    // the rank each stored program came from
  if (layout.zettasim != nullptr) {
    programs.resize(layout.zettasim->roles.size());
    program_rank.assign(programs.size(), UINT64_MAX);
  }
  for (uint64_t r = 0; r < layout.ranks; ++r) {
    const std::string path = rank_file_path(prefix, r);
    std::optional<RankFile> loaded;
    if (r > 0) {
      const auto bytes = files.read(path);
      if (!bytes)
        throw core::InputError(
            path, "",
            "missing: the trace's metadata says the job has " + std::to_string(layout.ranks) + " ranks");
      loaded = read_rank_file(path, *bytes);
    }
    const RankFile& f = r == 0 ? first : *loaded;
    if (layout.zettasim != nullptr) {
      const nlohmann::json h = zettasim_header(f);
      if (h.is_null() || !h.is_object() || h.value("trace", nlohmann::json()) != header["trace"])
        throw core::InputError(path, "/metadata/attr/zettasim",
                               "differs from rank 0's: files of two traces mixed?");
      if (!h.contains("rank") || h["rank"] != r)
        throw core::InputError(path, "/metadata/attr/zettasim/rank", "expected rank " + std::to_string(r));
    }
    double rank_flops = 0;
    nlohmann::json ops = convert_rank(f, r, layout, report, rank_flops);
    flops += rank_flops;
    if (layout.zettasim == nullptr) {
      programs.push_back(std::move(ops));
      continue;
    }
    const uint32_t role = layout.zettasim->role_of(r);
    if (program_rank[role] == UINT64_MAX) {
      programs[role] = std::move(ops);
      program_rank[role] = r;
    } else if (const int64_t k = first_difference(ops, programs[role]); k >= 0) {
      throw core::InputError(path, "/nodes",
                             "op " + std::to_string(k) + " differs from rank " +
                                 std::to_string(program_rank[role]) + "'s, which runs the same role \"" +
                                 layout.zettasim->roles[role].name +
                                 "\" (zettasim traces hold one program per role)");
    }
  }

  nlohmann::json doc;
  if (layout.zettasim != nullptr) {
    doc = header["trace"];
    for (size_t role = 0; role < programs.size(); ++role)
      doc["roles"][role]["ops"] = std::move(programs[role]);
  } else {
    doc = {{"kind", "trace"},
           {"format_version", workload::Trace::kFormatVersion},
           {"name", std::filesystem::path(prefix).filename().string()},
           {"mesh", nlohmann::json::array({{{"name", kGenericAxis}, {"size", layout.ranks}}})},
           {"streams", kGenericStreams},
           {"role_axis", layout.every_rank},
           {"model_flops", core::to_string(core::Flops(flops))},
           {"model_dtype", "bf16"},
           {"tokens_per_iteration", 0}};
    if (group_mesh) {
      doc["mesh"] = nlohmann::json::array();
      for (const auto& a : group_mesh->axes) doc["mesh"].push_back({{"name", a.name}, {"size", a.size}});
      doc["communicators"] = nlohmann::json::array();
      for (const auto& c : group_mesh->communicators)
        doc["communicators"].push_back(c.groups.empty()
                                           ? nlohmann::json{{"name", c.name}, {"axes", c.axes}}
                                           : nlohmann::json{{"name", c.name}, {"groups", c.groups}});
    }
    doc["roles"] = nlohmann::json::array();
    for (uint64_t r = 0; r < layout.ranks; ++r)
      doc["roles"].push_back({{"name", "rank" + std::to_string(r)}, {"ops", std::move(programs[r])}});
  }
  out.trace = workload::trace_from_json(doc, prefix);
  return out;
}

}  // namespace zs::chakra
