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
