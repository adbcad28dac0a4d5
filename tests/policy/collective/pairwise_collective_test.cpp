// All-to-all schedules: who sends what to whom, uniform and with per-peer sizes.
#include <doctest/doctest.h>

#include "policy/collective/pairwise_collective.hpp"

#include <set>

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

TEST_CASE("pairwise all-to-all: n-1 send-receive steps, each after both ends' previous step") {
  auto s = policy::pairwise_all_to_all(request(6, 6e6));
  CHECK(s.steps == 5);
  REQUIRE(s.transfers.size() == 30);
  for (size_t i = 0; i < s.transfers.size(); ++i) {
    const auto& t = s.transfers[i];
    CHECK(t.dst == (t.src + t.step + 1) % 6);
    if (t.step == 0) {
      CHECK(t.after.empty());
      continue;
    }
    // Both ends must have finished their previous step: its send and the transfer it received.
    std::set<uint32_t> expected;
    for (size_t p = 0; p < s.transfers.size(); ++p) {
      const auto& q = s.transfers[p];
      if (q.step + 1 != t.step) continue;
      for (uint32_t end : {t.src, t.dst})
        if (q.src == end || q.dst == end) expected.insert(static_cast<uint32_t>(p));
    }
    CHECK(std::set<uint32_t>(t.after.begin(), t.after.end()) == expected);
    CHECK(t.after.size() == expected.size());
  }
  // Step k = 2 of member 0 (0 -> 2) waits for 0->1, 5->0, 2->3 and 1->2 of step 1, not for 3->4 or 4->5.
  CHECK(s.transfers[6].after == std::vector<uint32_t>{0, 1, 2, 5});
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
