// Chakra .et files written as ASTRA-sim's tool chain writes them, for tests.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "chakra/chakra_attributes.hpp"
#include "chakra/chakra_export.hpp"
#include "chakra/chakra_import.hpp"
#include "chakra/et_records.hpp"
#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "et_def.pb.h"
#include "support/temp_dir.hpp"

namespace zs::test {

inline ChakraProtoMsg::Node chakra_node(uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type,
                                        std::vector<uint64_t> data_deps,
                                        std::vector<ChakraProtoMsg::AttributeProto> attrs) {
  ChakraProtoMsg::Node n;
  n.set_id(id);
  n.set_name(name);
  n.set_type(type);
  for (auto d : data_deps) n.add_data_deps(d);
  for (auto& a : attrs) *n.add_attr() = a;
  return n;
}

/// Writes rank `rank`'s file <name>.<rank>.et in `dir`: metadata then `nodes`, framed as Chakra's
/// encodeMessage does.
inline void write_chakra_rank(const TempDir& dir, const std::string& name, uint64_t rank,
                              const std::vector<ChakraProtoMsg::Node>& nodes) {
  std::string out;
  ChakraProtoMsg::GlobalMetadata meta;
  meta.set_version("0.0.4");
  chakra::append_record(meta, out);
  for (const auto& n : nodes) chakra::append_record(n, out);
  std::ofstream(dir.file(name + "." + std::to_string(rank) + ".et"), std::ios::binary) << out;
}

/// An all-reduce of `bytes` on process group `pg` (pg_name), after node `after` (0: none).
inline ChakraProtoMsg::Node chakra_all_reduce(uint64_t id, const std::string& pg, uint64_t bytes,
                                              uint64_t after) {
  std::vector<uint64_t> deps;
  if (after != 0) deps.push_back(after);
  return chakra_node(id, "all_reduce_" + pg, ChakraProtoMsg::COMM_COLL_NODE, deps,
                     {chakra::bool_attribute("is_cpu_op", false),
                      chakra::int64_attribute("comm_type", ChakraProtoMsg::ALL_REDUCE),
                      chakra::uint64_attribute("comm_size", bytes), chakra::string_attribute("pg_name", pg)});
}

/// The error importing `prefix` (with communicator-group file `groups`, if given) gives, or "(no error)".
inline std::string chakra_import_error(const std::string& prefix, const std::string& groups = "") {
  core::DiskFileSource files;
  try {
    chakra::import_chakra(prefix, files, groups);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// `trace` exported into `dir` as "job"; returns the prefix (the group file is prefix + ".json").
inline std::string export_chakra_job(const workload::Trace& trace, const test::TempDir& dir) {
  chakra::export_chakra(trace, "job", [&](const std::string& name, const std::string& bytes) {
    std::ofstream(dir.file(name), std::ios::binary) << bytes;
  });
  return dir.file("job");
}

/// Rewrites every rank file of `prefix` without zettasim's "zettasim" attributes, as a foreign tool that
/// keeps only Chakra's own fields would.
inline void strip_zettasim_attributes(const std::string& prefix, uint64_t ranks) {
  for (uint64_t r = 0; r < ranks; ++r) {
    const std::string path = prefix + "." + std::to_string(r) + ".et";
    const std::string bytes = read_text(path);
    chakra::RecordReader reader(bytes, path);
    ChakraProtoMsg::GlobalMetadata meta;
    reader.next(meta, "/metadata");
    meta.clear_attr();
    std::string out;
    chakra::append_record(meta, out);
    ChakraProtoMsg::Node node;
    while (reader.next(node, "/nodes")) {
      auto* attrs = node.mutable_attr();
      for (int k = attrs->size() - 1; k >= 0; --k)
        if (attrs->Get(k).name() == chakra::kZettasimAttribute) attrs->DeleteSubrange(k, 1);
      chakra::append_record(node, out);
      node.Clear();
    }
    std::ofstream(path, std::ios::binary) << out;
  }
}

}  // namespace zs::test
