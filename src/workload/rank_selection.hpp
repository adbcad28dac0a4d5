// Which ranks a view of a run shows: rank numbers and ranges, or ranges of mesh coordinates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "workload/mesh.hpp"

namespace zs::workload {

/// Comma-separated items, either all rank items ("0-7,12": a rank or an inclusive range N-M or N..M)
/// or all coordinate items ("pp=0..3,tp=0": an axis of the mesh and a coordinate or an inclusive range).
/// Rank items select their union; coordinate items select the ranks whose coordinate on each named axis
/// is in one of that axis' ranges (axes not named: any coordinate).
class RankSelection {
 public:
  /// Every rank.
  RankSelection() = default;
  /// Parses `text` against `mesh`; throws core::InputError naming `option` for a malformed item, an
  /// unknown axis, a coordinate or rank beyond the mesh, or a mix of rank and coordinate items.
  static RankSelection parse(std::string_view text, const Mesh& mesh, const std::string& option);

  bool contains(uint64_t rank) const;
  bool selects_every_rank() const { return ranks_.empty() && coordinates_.empty(); }

 private:
  struct CoordinateRange {
    size_t axis = 0;
    uint32_t first = 0, last = 0;  ///< inclusive
  };
  std::vector<std::pair<uint64_t, uint64_t>> ranks_;  ///< inclusive ranges
  std::vector<CoordinateRange> coordinates_;
  Mesh mesh_;  ///< for coordinate items
};

}  // namespace zs::workload
