// The SPMD training trace: one program per rank role, collectives on communicators named by mesh axes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/dtype.hpp"
#include "core/input_error.hpp"
#include "core/units.hpp"
#include "workload/communicator_groups.hpp"
#include "workload/expert_routing.hpp"
#include "workload/mesh.hpp"

namespace zs::workload {

enum class CollectiveKind { kAllReduce, kReduceScatter, kAllGather, kAllToAll, kBroadcast, kReduce };
std::string_view to_string(CollectiveKind k);

/// Work on the rank's own unit.
struct ComputeOp {
  core::Flops flops;  ///< FLOP
  core::Bytes bytes;  ///< HBM traffic, B
  core::Dtype dtype = core::Dtype::kBf16;
  core::WorkKind kind = core::WorkKind::kMatrix;
  uint32_t kernels = 1;  ///< kernel launches
  /// HBM the op needs resident while it runs (weights, activations, workspace), B; 0: not stated.
  /// More than the unit's HBM capacity is a capacity error before the run.
  core::Bytes memory{0.0};
  /// Expert computation: the index of an earlier expert-dispatch all-to-all of the same program. The
  /// FLOPs and bytes above are for the nominal load (tokens x top_k / ranks); the engine scales them
  /// by the tokens this rank actually received in that all-to-all (routing imbalance).
  std::optional<uint32_t> scaled_by = std::nullopt;
  /// A measured duration (imported traces that give no FLOP count), s: the engine takes it as the op's
  /// time on any unit instead of the unit model's estimate. Not combined with `scaled_by`.
  std::optional<core::Seconds> duration = std::nullopt;
};

/// A collective over the communicator named by a mesh axis.
struct CollectiveOp {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::string communicator;  ///< a mesh axis name, e.g. "dp"
  core::Bytes bytes;         ///< the full buffer per rank (S in the closed forms), B
  /// All-to-all only: per-peer sizes from expert routing (all-to-all-v). Absent: S/n to every peer.
  /// With it, `bytes` is the nominal S = tokens x top_k x bytes_per_token.
  std::optional<ExpertDispatch> dispatch = std::nullopt;
};

/// A move between the rank's unit and a memory pool (offload, prefetch), over the fabric.
enum class MemoryDirection { kRead, kWrite };  ///< read: pool to unit; write: unit to pool
struct MemoryOp {
  MemoryDirection direction = MemoryDirection::kRead;
  core::Bytes bytes;  ///< B
};

/// Half of a point-to-point transfer with the mesh neighbour `offset` steps along `axis` (pipeline
/// activations and gradients). A send and the matching receive (the peer's op with the opposite
/// offset, in the same order on both sides) start one transfer once both are ready; both complete
/// with it.
enum class P2PDirection { kSend, kRecv };
struct P2POp {
  P2PDirection direction = P2PDirection::kSend;
  std::string axis;    ///< a mesh axis name, e.g. "pp"
  int32_t offset = 1;  ///< +1: the next rank along the axis; -1: the previous one
  core::Bytes bytes;   ///< B
  bool wrap = false;   ///< the axis is a ring: past its end is its start (interleaved pipelines)
};

/// One operation of a role program. An op starts when its explicit dependencies are done and the
/// previous op on the same stream is done (streams are in-order queues, as CUDA streams are).
struct Op {
  std::string name;
  std::string phase;           ///< "forward", "backward", "optimizer", ...
  uint32_t stream = 0;         ///< index into Trace::streams
  std::vector<uint32_t> deps;  ///< indices of earlier ops of the same program
  std::variant<ComputeOp, CollectiveOp, MemoryOp, P2POp> body;
};

/// What a rank of a role keeps in its unit's HBM at the peak of the iteration, B.
struct MemoryFootprint {
  core::Bytes weights{0.0};      ///< parameters (the share this rank holds), B
  core::Bytes gradients{0.0};    ///< B
  core::Bytes optimizer{0.0};    ///< optimizer state kept in HBM (0 when offloaded), B
  core::Bytes activations{0.0};  ///< activations held for backward at the peak, B
  core::Bytes buffers{0.0};      ///< communication and gathered-parameter buffers, B
  /// What this rank writes to a distributed checkpoint (each tensor once over the job, a replicated
  /// tensor's writing shared among its replicas), B; nullopt when the trace does not say. Not held in HBM.
  std::optional<core::Bytes> checkpoint = std::nullopt;
  core::Bytes total() const { return weights + gradients + optimizer + activations + buffers; }
};

/// What a distributed checkpoint of a job writes.
struct CheckpointSize {
  core::Bytes total{0.0};         ///< over all ranks: each tensor once, B
  core::Bytes per_rank_max{0.0};  ///< on the rank that writes most, B
};

struct RoleProgram {
  std::string name;
  std::vector<Op> ops;
  /// Stated by the generator; nullopt when the trace does not say (imported traces).
  std::optional<MemoryFootprint> memory = std::nullopt;
};

/// A communicator spanning several mesh axes, e.g. "dp" over {"edp", "ep", "cp"}: its groups are the
/// ranks that differ only in those coordinates. Or, with `groups` instead of axes, explicit lists of
/// member ranks (imported process groups that are not the axes of a mesh): a rank is in at most one.
struct Communicator {
  std::string name;
  std::vector<std::string> axes;
  std::vector<std::vector<uint64_t>> groups = {};  ///< each ascending; empty: the groups of `axes`
};

/// A whole iteration of a job. Every rank of the mesh runs the program of its role; a 524,288-rank
/// job holds as many programs as it has distinct roles, not one per rank.
struct Trace {
  static constexpr int kFormatVersion = 1;

  std::string name;
  Mesh mesh;
  std::vector<std::string> streams;  ///< e.g. {"compute", "comm"}
  std::vector<RoleProgram> roles;
  /// Communicators over several axes. A name not listed here is the mesh axis of that name.
  std::vector<Communicator> communicators;
  /// Empty: every rank runs roles[0]. Otherwise a mesh axis, and rank r runs roles[coordinate(r, axis)];
  /// or a communicator over several axes, and rank r runs roles[its position in that group].
  std::string role_axis;
  core::Flops model_flops;                       ///< model FLOPs of one iteration, all ranks (for MFU)
  core::Dtype model_dtype = core::Dtype::kBf16;  ///< whose peak MFU is relative to
  double tokens_per_iteration = 0;               ///< tokens the whole job trains on per iteration
  /// Where the user wrote this workload, named first by errors found in it: a trace file (with
  /// `origin_pointer` empty, so an error's path is the trace's own), or the scenario file and the JSON
  /// pointer of the section a generator built the trace from. Empty: errors name the trace.
  std::string origin_file;
  std::string origin_pointer;
  /// For a generated trace: the key of its workload section that asked for memory moves
  /// (e.g. "offload_optimizer"); empty otherwise.
  std::string memory_moves_key;

  /// Index in `roles` of the program rank `rank` runs: its coordinate on role_axis, or (role_axis naming
  /// a communicator over several axes) its position in that group.
  uint32_t role_of(uint64_t rank) const;
  /// The peer of `rank` for point-to-point op `p`: `p.offset` steps along its axis, or positions in its
  /// group when `p.axis` names a communicator over several axes; nullopt past the end without wrap.
  std::optional<uint64_t> peer_of(uint64_t rank, const P2POp& p) const;
  const RoleProgram& program_of(uint64_t rank) const { return roles[role_of(rank)]; }
  /// Ranks that run each role program (every role has as many).
  uint64_t ranks_per_role() const { return roles.empty() ? 0 : mesh.size() / roles.size(); }
  /// The checkpoint every role's footprint states, summed over the ranks; nullopt when a role states none.
  std::optional<CheckpointSize> checkpoint_size() const;
  /// The mesh axes (ascending) of communicator `name`, or nullopt if it names neither a listed
  /// communicator nor an axis, or names a communicator of explicit groups.
  std::optional<std::vector<size_t>> communicator_axes(std::string_view name) const;
  /// The groups of communicator `name` (over mesh axes or listed), or nullopt if it names neither a
  /// listed communicator nor an axis. Refers to this trace.
  std::optional<CommunicatorGroups> groups_of(std::string_view name) const;
  /// Whether any communicator lists its groups explicitly (collapsed fidelity needs a mesh).
  bool has_explicit_groups() const;
};

/// An error in `trace` at `trace_pointer` (a JSON pointer into the trace, e.g. "/roles/0/ops/12"),
/// naming where the user wrote the workload first (origin_file, origin_pointer, then `key` below it
/// when given) and the trace's own path as context.
core::InputError trace_error(const Trace& trace, const std::string& trace_pointer, const std::string& message,
                             const std::string& key = "");

/// Checks the structure: role count matches role_axis, streams and communicators exist, dependencies
/// point to earlier ops. Throws core::InputError naming `file` and the JSON path of the offending field.
void validate(const Trace& trace, const std::string& file);

}  // namespace zs::workload
