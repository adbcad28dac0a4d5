// The largest scenarios' results byte for byte against tests/golden: the headline moe-10t-512k (about a
// minute in a release build), the oversubscribed fat-tree and the 2,048-rank Qwen3 (seconds in a release
// build, half a minute each under the sanitizers): label slow.
#include <doctest/doctest.h>

#include "support/golden_outputs.hpp"

TEST_CASE("golden run: moe-10t-512k") {
  zs::test::check_golden("run", "moe-10t-512k", "moe-10t-512k", zs::test::kRunFiles);
}
TEST_CASE("golden run: fat-tree-oversubscribed") {
  zs::test::check_golden("run", "fat-tree-oversubscribed", "fat-tree-oversubscribed", zs::test::kRunFiles);
}
TEST_CASE("golden run: qwen3-ep64-2048") {
  zs::test::check_golden("run", "qwen3-ep64-2048", "qwen3-ep64-2048", zs::test::kRunFiles);
}
