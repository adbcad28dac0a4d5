// ASTRA-sim's communicator-group file, and the mesh of ranks its process groups form.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/file_source.hpp"
#include "workload/trace.hpp"

namespace zs::chakra {

/// A communicator-group file as ASTRA-sim reads it (--comm-group-configuration) and PyTorch's
/// execution-trace tools write it: a JSON object from a group id, the string a node's "pg_name" carries,
/// to the list of the group's member ranks, e.g. {"0": [0, 1], "1": [2, 3]}.
struct CommGroups {
  std::string file;  ///< where it was read, for errors
  /// (id, members ascending), ordered by id as text.
  std::vector<std::pair<std::string, std::vector<uint64_t>>> groups;
  /// The members of group `id`, or nullptr.
  const std::vector<uint64_t>* find(const std::string& id) const;
  /// The group ids, comma-separated, for messages.
  std::string ids() const;
};

/// Reads `path`; a malformed file, a rank outside [0, ranks), a rank listed twice in a group or an empty
/// group is a core::InputError naming the file and the group.
CommGroups read_comm_groups(const std::string& path, const core::FileSource& files, uint64_t ranks);

/// The mesh of a job's ranks whose axes the process groups are: each kind of group (the groups whose
/// members sit at the same offsets from their first) that partitions the ranks becomes a communicator
/// over one or more mesh axes, so that collapsed fidelity and the report's per-communicator split work.
/// A kind that cannot be an axis (it leaves ranks out, overlaps, is no regular grid, or does not nest
/// with the kinds before it in the file) becomes a communicator of listed groups, which exact fidelity
/// replays on exactly their members.
struct GroupMesh {
  std::vector<workload::MeshAxis> axes;  ///< row-major, the last axis fastest
  /// The kinds over several axes, the listed groups, and every rank.
  std::vector<workload::Communicator> communicators;
  std::map<std::string, std::string> communicator_of;  ///< group id -> communicator or axis name
  std::string every_rank;  ///< the axis or communicator of all ranks (rank r at position r)
  /// Per kind of group run as listed groups: its first ids and why it is not an axis of the mesh.
  std::vector<std::string> listed;
};

/// The mesh above. Groups that form no mesh at all leave one axis over every rank and list theirs.
GroupMesh mesh_of_groups(const CommGroups& groups, uint64_t ranks);

}  // namespace zs::chakra
