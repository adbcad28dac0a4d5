// One rank's Chakra file read and converted to the ops of a zettasim program (internal to the import).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "chakra/chakra_import.hpp"
#include "chakra/comm_groups.hpp"
#include "et_def.pb.h"
#include "workload/trace.hpp"

namespace zs::chakra {

/// Streams of a trace that does not come from zettasim.
enum GenericStream : uint32_t { kComputeStream, kCommStream, kMemoryStream, kSendStream, kRecvStream };
constexpr std::array<const char*, 5> kGenericStreams = {"compute", "comm", "memory", "send", "recv"};
/// The mesh axis of a trace that does not come from zettasim and has no process groups.
constexpr const char* kGenericAxis = "rank";

/// One rank's file: its metadata and nodes, in file order.
struct RankFile {
  std::string path;
  ChakraProtoMsg::GlobalMetadata meta;
  std::vector<ChakraProtoMsg::Node> nodes;
};

/// Parses a rank file's records; a truncated or malformed one is a core::InputError at its record.
RankFile read_rank_file(const std::string& path, const std::string& bytes);

/// The "zettasim" attribute of a record (at JSON-style `path`) parsed as JSON, or null when absent.
nlohmann::json zettasim_attribute(
    const google::protobuf::RepeatedPtrField<ChakraProtoMsg::AttributeProto>& attrs, const std::string& file,
    const std::string& path);

/// How the files of a job are read: the layout restored from zettasim's metadata, or the generic one.
struct Layout {
  const workload::Trace* zettasim = nullptr;  ///< mesh, communicators, streams; null for generic traces
  uint64_t ranks = 0;
  const CommGroups* groups = nullptr;  ///< generic traces: the process groups' members, when given
  const GroupMesh* mesh = nullptr;     ///< and the mesh they form
  /// Generic traces: the axis or communicator of every rank (collectives without pg_name, transfers).
  std::string every_rank = kGenericAxis;
};

/// Rank `rank`'s file as a program: the "ops" array of the trace format, in dependency order (ties in file
/// order), skipped CPU and metadata nodes bridged. Counts what it did in `report` and adds the FLOPs of its
/// compute to `flops`.
nlohmann::json convert_rank(const RankFile& f, uint64_t rank, const Layout& layout,
                            ChakraImportReport& report, double& flops);

}  // namespace zs::chakra
