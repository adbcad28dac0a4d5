// The headline scenario's results byte for byte against tests/golden (about a minute in a release build:
// label slow).
#include <doctest/doctest.h>

#include "support/golden_outputs.hpp"

TEST_CASE("golden run: moe-10t-512k") {
  zs::test::check_golden("run", "moe-10t-512k", "moe-10t-512k", zs::test::kRunFiles);
}
