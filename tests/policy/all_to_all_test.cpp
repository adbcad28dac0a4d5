// All-to-all schedules: who sends what to whom, uniform and with per-peer sizes.
#include <doctest/doctest.h>

#include "policy/all_to_all.hpp"

using namespace zs;

namespace {
policy::CollectiveRequest request(uint32_t n, double bytes) {
  policy::CollectiveRequest req{workload::CollectiveKind::kAllToAll, core::Bytes(bytes),
                                std::vector<topology::NodeId>(n, 0), nullptr};
  for (uint32_t i = 0; i < n; ++i) req.member_units[i] = i;
  return req;
}
}  // namespace

TEST_CASE("direct all-to-all: one step, S/n to each of the n-1 peers") {
  auto s = policy::direct_all_to_all(request(4, 4e6));
  CHECK(s.algorithm == "direct");
  CHECK(s.steps == 1);
  REQUIRE(s.transfers.size() == 12);
  for (const auto& t : s.transfers) {
    CHECK(t.src != t.dst);
    CHECK(t.bytes.value() == 1e6);
    CHECK(t.after.empty());
  }
}

TEST_CASE("pairwise all-to-all: n-1 steps, member i sends to i+k in step k after its previous send") {
  auto s = policy::pairwise_all_to_all(request(4, 4e6));
  CHECK(s.steps == 3);
  REQUIRE(s.transfers.size() == 12);
  for (size_t i = 0; i < s.transfers.size(); ++i) {
    const auto& t = s.transfers[i];
    CHECK(t.dst == (t.src + t.step + 1) % 4);
    if (t.step == 0) {
      CHECK(t.after.empty());
    } else {
      REQUIRE(t.after.size() == 1);
      CHECK(s.transfers[t.after[0]].src == t.src);
      CHECK(s.transfers[t.after[0]].step == t.step - 1);
    }
  }
}

TEST_CASE("all-to-all-v: each transfer carries its peer_bytes entry and zero entries are skipped") {
  auto req = request(3, 0);
  req.peer_bytes = {{0, 10, 0}, {20, 0, 30}, {40, 50, 0}};
  auto s = policy::direct_all_to_all(req);
  REQUIRE(s.transfers.size() == 5);
  double total = 0;
  for (const auto& t : s.transfers) {
    CHECK(t.bytes.value() == req.peer_bytes[t.src][t.dst]);
    total += t.bytes.value();
  }
  CHECK(total == 150);
}
