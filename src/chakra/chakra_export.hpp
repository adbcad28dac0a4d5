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

/// A compute op's time on the unit that runs `rank` (the engine's op_duration on the placed unit's model).
using ComputeTime = std::function<core::Seconds(uint64_t rank, const workload::ComputeOp& op)>;

/// Writes rank r's program as "<base_name>.<r>.et" for every rank of the mesh, in rank order:
/// a GlobalMetadata record (version 0.0.4) then one Node per op, ids = op indices, in op order.
/// - COMP_NODE: num_ops = FLOPs, tensor_size = HBM bytes (ASTRA-sim's roofline inputs); duration_micros
///   the op's measured duration, or else `compute_time`'s (whole microseconds, at least 1), or else none.
/// - COMM_COLL_NODE: comm_type, comm_size, pg_name = the number of the node's process group: "0" for a
///   group of every rank (ASTRA-sim reads pg_name with std::stoi and takes "0", like an empty one, for
///   all ranks, with or without a group file), else one per distinct member set, from 1. comm_size is
///   each rank's input as PyTorch's execution-trace observer records it and ASTRA-sim reads it (its ring
///   gathers comm_size x n): S / n for an all-gather of n members, the buffer S (B) for the others.
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
uint64_t export_chakra(const workload::Trace& trace, const std::string& base_name, const FileSink& sink,
                       const ComputeTime& compute_time = {});

}  // namespace zs::chakra
