// Import of MLCommons Chakra execution traces (one .et file per rank) as a zettasim trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "workload/trace.hpp"

namespace zs::chakra {

/// What the import did, for its one-line report.
struct ChakraImportReport {
  uint64_t ranks = 0;
  uint64_t nodes = 0;                   ///< device nodes imported as ops, all ranks
  uint64_t cpu_nodes_skipped = 0;       ///< is_cpu_op nodes: host work, not modelled (dependencies kept)
  double cpu_skipped_seconds = 0;       ///< their duration_micros, summed, s
  uint64_t metadata_nodes_skipped = 0;  ///< METADATA_NODE records (dependencies kept)
  /// Foreign compute nodes costed from num_ops whose inputs state no floating tensor type: bf16 assumed.
  uint64_t assumed_bf16 = 0;
  /// Foreign compute nodes costed from num_ops whose op is not known as matrix or vector work: matrix
  /// assumed.
  uint64_t assumed_matrix = 0;
  uint64_t measured_durations = 0;  ///< compute nodes without num_ops, replayed for their duration_micros
  bool zettasim_metadata = false;   ///< written by zettasim's export: mesh, roles and streams restored
  std::string chakra_version;       ///< GlobalMetadata.version of rank 0
  std::string comm_groups;          ///< the communicator-group file read, if any
  /// Kinds of process group that are not the axes of a mesh, run as listed groups: ids and why.
  std::vector<std::string> listed_groups;
};

struct ChakraImport {
  workload::Trace trace;
  ChakraImportReport report;
};

/// Whether "<prefix>.0.et" exists: the Chakra naming ASTRA-sim uses (prefix = folder/name).
bool chakra_trace_exists(const std::string& prefix, const core::FileSource& files);

/// Throws core::InputError when `path` names one rank's file ("<prefix>.<rank>.et") where a trace's
/// prefix is expected, saying which prefix and how many rank files were found.
void refuse_rank_file_as_prefix(const std::string& path, const core::FileSource& files);

/// Reads "<prefix>.<r>.et" for r = 0, 1, ... while the files exist.
/// - Files written by zettasim's export: the mesh, communicators, roles (one program per role; every
///   rank's file must agree with its role's), streams, phases and expert routing are restored from the
///   "zettasim" attributes; sizes, dependencies and peers come from the Chakra fields.
/// - Other Chakra traces: a mesh of one axis "rank" (role axis "rank": one program per rank). Compute
///   nodes give num_ops (FLOPs) and tensor_size (HBM bytes), with the data type and kind of work their
///   inputs and op state (ComputeKind; bf16 and matrix work where they state none); without num_ops
///   their duration_micros is replayed as measured. Collectives span all ranks (pg_name empty) or their
///   process group (`comm_groups`);
///   send/recv pair with their peer in order (comm_tag is not used). Streams: compute nodes on
///   "compute" (one kernel at a time, as ASTRA-sim), collectives on "comm", memory moves on "memory",
///   sends on "send", receives on "recv". CPU and metadata nodes are skipped, their dependencies
///   bridged.
/// Nodes are put in dependency order (ties in file order). Errors are core::InputError naming the rank
/// file and the record ("/nodes/K", "/nodes/K/attr/comm_type", "/metadata"): a truncated record, a
/// dependency on a missing id, a cycle, an unsupported node or collective type, a process group whose
/// members are unknown, a peer outside the job.
/// `comm_groups`, when not empty: ASTRA-sim's communicator-group file (CommGroups) giving the members of
/// each pg_name. A generic trace's mesh is then the one its groups form (mesh_of_groups), each
/// collective runs on its process group's communicator, and rank r runs role r; a zettasim export
/// restores its own communicators, and the file is only checked.
ChakraImport import_chakra(const std::string& prefix, const core::FileSource& files,
                           const std::string& comm_groups = "");

}  // namespace zs::chakra
