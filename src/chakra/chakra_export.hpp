// Export of a zettasim trace to MLCommons Chakra execution traces: one .et file per rank.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "workload/trace.hpp"

namespace zs::chakra {

/// Chakra has no SPMD form: export writes one file per rank and refuses meshes above this.
inline constexpr uint64_t kMaxExportRanks = 65536;

/// Receives each exported file: its name ("<base>.<rank>.et", "<base>.json") and its bytes.
using FileSink = std::function<void(const std::string& file_name, const std::string& bytes)>;

/// Writes rank r's program as "<base_name>.<r>.et" for every rank of the mesh, in rank order:
/// a GlobalMetadata record (version 0.0.4) then one Node per op, ids = op indices, in op order.
/// - COMP_NODE: num_ops = FLOPs, tensor_size = HBM bytes (ASTRA-sim's roofline inputs); duration_micros
///   only for ops with a measured duration.
/// - COMM_COLL_NODE: comm_type, comm_size = the full buffer S (B), pg_name = the number of the node's
///   process group: one per distinct member set of the communicators' groups, from 1 (ASTRA-sim reads
///   pg_name with std::stoi and takes "0", like an empty one, for all ranks).
/// - COMM_SEND_NODE / COMM_RECV_NODE: comm_src, comm_dst (ranks), comm_size, comm_tag (equal on the two
///   halves of a transfer).
/// - MEM_LOAD_NODE / MEM_STORE_NODE: tensor_size for pool-to-unit / unit-to-pool moves.
/// data_deps are the op's dependencies; ctrl_deps the previous op of the same stream (Chakra has no
/// streams). What Chakra cannot hold (mesh, communicators, roles, streams, phases, dtypes, expert
/// routing, the mesh axis of a transfer) goes into a "zettasim" JSON string attribute, so that import
/// restores the trace. Then "<base_name>.json": the communicator-group file giving each pg_name's member
/// ranks, in the format ASTRA-sim's --comm-group-configuration reads ({"1": [0, 1], ...}, read by
/// Workload::initialize_comm_groups in astra-sim/workload/Workload.cc). Throws core::InputError for a
/// mesh over kMaxExportRanks or a transfer past the end of its axis. Returns the number of rank files.
uint64_t export_chakra(const workload::Trace& trace, const std::string& base_name, const FileSink& sink);

}  // namespace zs::chakra
