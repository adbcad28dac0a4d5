// The logical device mesh of a job: named axes (dp, pp, tp, ...) and the groups they define.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zs::workload {

struct MeshAxis {
  std::string name;
  uint32_t size = 1;
};

/// Ranks laid out row-major over the axes, the last axis fastest: with axes [dp, tp], ranks
/// 0..tp-1 form the first tensor-parallel group (the Megatron convention).
/// A communicator named after an axis groups the ranks that differ only in that axis' coordinate.
class Mesh {
 public:
  Mesh() = default;
  /// Throws std::invalid_argument for an empty axis name, a duplicate name or a zero size.
  explicit Mesh(std::vector<MeshAxis> axes);

  const std::vector<MeshAxis>& axes() const { return axes_; }
  uint64_t size() const { return size_; }
  std::optional<size_t> axis_index(std::string_view name) const;

  uint32_t coordinate(uint64_t rank, size_t axis) const;
  /// Ranks between neighbours along `axis` (row-major: the last axis has stride 1).
  uint64_t stride(size_t axis) const { return strides_[axis]; }
  /// Index of the group of `rank` along `axis`, in [0, size / axis size).
  uint64_t group_index(uint64_t rank, size_t axis) const;
  /// The ranks of the group of `rank` along `axis`, ordered by their coordinate on that axis.
  std::vector<uint64_t> group_members(uint64_t rank, size_t axis) const;
  /// The rank `offset` steps along `axis` from `rank`, or nullopt past the end of the axis.
  std::optional<uint64_t> neighbour(uint64_t rank, size_t axis, int64_t offset) const;
  /// The same, wrapping around the end of the axis (a ring along it).
  uint64_t neighbour_wrapped(uint64_t rank, size_t axis, int64_t offset) const;
  /// neighbour_wrapped when `wrap`, else neighbour.
  std::optional<uint64_t> neighbour(uint64_t rank, size_t axis, int64_t offset, bool wrap) const {
    return wrap ? std::optional<uint64_t>(neighbour_wrapped(rank, axis, offset))
                : neighbour(rank, axis, offset);
  }

  /// Groups over several axes (indices in ascending order): the ranks that differ only in those
  /// axes' coordinates, ordered row-major over them (the last axis fastest).
  uint64_t group_size(const std::vector<size_t>& axes) const;
  /// Index of the group of `rank`, in [0, size / group_size).
  uint64_t group_index(uint64_t rank, const std::vector<size_t>& axes) const;
  /// Position of `rank` within its group.
  uint32_t position(uint64_t rank, const std::vector<size_t>& axes) const;
  std::vector<uint64_t> group_members(uint64_t rank, const std::vector<size_t>& axes) const;
  /// The rank `offset` positions from `rank` in its group over `axes` (row-major order), wrapping around
  /// the group's end when `wrap`; nullopt past an end otherwise.
  std::optional<uint64_t> neighbour(uint64_t rank, const std::vector<size_t>& axes, int64_t offset,
                                    bool wrap) const;

 private:
  std::vector<MeshAxis> axes_;
  std::vector<uint64_t> strides_;
  uint64_t size_ = 1;
};

}  // namespace zs::workload
