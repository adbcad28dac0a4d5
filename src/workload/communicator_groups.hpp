// The groups of one communicator: the mesh's groups over some of its axes, or explicit lists of ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "workload/mesh.hpp"

namespace zs::workload {

/// Which ranks a collective on a communicator runs among. A communicator over mesh axes groups the ranks
/// that differ only in those axes' coordinates, and every rank is in one group; a communicator of
/// explicit member lists (process groups that are not the axes of a mesh, e.g. Megatron's embedding
/// group of the first and last pipeline stages) holds the ranks it lists, and other ranks are in none.
/// Refers to the mesh or lists it was made from, which must outlive it.
class CommunicatorGroups {
 public:
  /// Over mesh axes `axes` (indices, ascending).
  CommunicatorGroups(const Mesh& mesh, std::vector<size_t> axes);
  /// Explicit member lists over the ranks of `mesh`: each list ascending, no rank in two lists.
  CommunicatorGroups(const Mesh& mesh, const std::vector<std::vector<uint64_t>>& lists);

  /// Over mesh axes (collapsed fidelity and mesh neighbours need them).
  bool on_mesh() const { return lists_ == nullptr; }
  /// The mesh axes; empty for explicit lists.
  const std::vector<size_t>& axes() const { return axes_; }
  /// The index of the group holding `rank`, or nullopt when none does (explicit lists only).
  std::optional<uint64_t> index(uint64_t rank) const;
  /// The position of `rank` in its group (in ascending rank order for lists). `rank` must be in one.
  uint32_t position(uint64_t rank) const;
  /// The members of the group holding `rank`. `rank` must be in one.
  std::vector<uint64_t> members(uint64_t rank) const;
  /// The size of the group holding `rank`. `rank` must be in one.
  uint64_t size(uint64_t rank) const;
  /// The size of the largest group.
  uint64_t largest() const;
  /// How many groups there are (index() is below it).
  uint64_t count() const;

 private:
  const Mesh* mesh_;
  std::vector<size_t> axes_;
  const std::vector<std::vector<uint64_t>>* lists_ = nullptr;
  std::vector<int64_t> list_of_rank_;  ///< explicit lists: the list holding each rank, -1 for none
};

}  // namespace zs::workload
