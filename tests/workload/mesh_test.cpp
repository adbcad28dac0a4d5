// Mesh coordinates and communicator groups (last axis fastest).
#include <doctest/doctest.h>

#include <stdexcept>

#include "workload/mesh.hpp"

using zs::workload::Mesh;

TEST_CASE("groups along each axis") {
  Mesh m({{"dp", 2}, {"pp", 3}, {"tp", 4}});
  CHECK(m.size() == 24);
  // Rank 13 = dp 1, pp 0, tp 1.
  CHECK(m.coordinate(13, 0) == 1);
  CHECK(m.coordinate(13, 1) == 0);
  CHECK(m.coordinate(13, 2) == 1);
  CHECK(m.group_members(13, 2) == std::vector<uint64_t>{12, 13, 14, 15});
  CHECK(m.group_members(13, 1) == std::vector<uint64_t>{13, 17, 21});
  CHECK(m.group_members(13, 0) == std::vector<uint64_t>{1, 13});
  // Group indices are dense and shared by the members.
  CHECK(m.group_index(13, 2) == m.group_index(15, 2));
  CHECK(m.group_index(13, 0) == 1);
  CHECK(m.group_index(23, 0) == 11);
  CHECK(m.axis_index("pp") == 1u);
  CHECK_FALSE(m.axis_index("ep").has_value());
}

TEST_CASE("bad meshes are rejected") {
  CHECK_THROWS_AS(Mesh({{"dp", 2}, {"dp", 2}}), std::invalid_argument);
  CHECK_THROWS_AS(Mesh({{"dp", 0}}), std::invalid_argument);
}

TEST_CASE("groups over several axes: members row-major over them, index over the others") {
  Mesh m({{"pp", 2}, {"edp", 2}, {"ep", 3}, {"tp", 2}});  // 24 ranks
  const std::vector<size_t> dp{1, 2};                     // edp x ep
  CHECK(m.group_size(dp) == 6);
  // Rank 13: pp 1, edp 0, ep 0, tp 1. Its dp group: pp 1, tp 1, every (edp, ep).
  auto members = m.group_members(13, dp);
  CHECK(members == std::vector<uint64_t>{13, 15, 17, 19, 21, 23});
  for (uint32_t i = 0; i < members.size(); ++i) {
    CHECK(m.position(members[i], dp) == i);
    CHECK(m.group_index(members[i], dp) == m.group_index(13, dp));
  }
  // Group indices cover [0, size / group size) once each.
  std::vector<int> seen(4, 0);
  for (uint64_t r = 0; r < m.size(); ++r) ++seen.at(m.group_index(r, dp));
  CHECK(seen == std::vector<int>{6, 6, 6, 6});
  // One axis gives the single-axis answers.
  for (uint64_t r = 0; r < m.size(); ++r) {
    CHECK(m.group_members(r, std::vector<size_t>{2}) == m.group_members(r, size_t{2}));
    CHECK(m.position(r, std::vector<size_t>{2}) == m.coordinate(r, 2));
  }
}

TEST_CASE("wrapped neighbours go round the axis") {
  Mesh m({{"pp", 4}, {"tp", 2}});
  CHECK(m.neighbour_wrapped(6, 0, +1) == 0);  // pp 3 -> pp 0, same tp
  CHECK(m.neighbour_wrapped(1, 0, -1) == 7);
  CHECK(m.neighbour_wrapped(2, 0, +1) == 4);
}
