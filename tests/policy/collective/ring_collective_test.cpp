// Ring schedules: step counts, chunk sizes and the dependency structure.
#include <doctest/doctest.h>

#include "policy/collective/ring_collective.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {
policy::CollectiveSchedule ring(CollectiveKind kind, uint32_t n, double bytes) {
  policy::CollectiveRequest req{kind, core::Bytes(bytes), std::vector<topology::NodeId>(n, 0), nullptr};
  for (uint32_t i = 0; i < n; ++i) req.member_units[i] = i;
  return policy::RingCollective().schedule(req);
}
}  // namespace

TEST_CASE("ring all-reduce: 2(n-1) steps of n transfers of S/n") {
  auto s = ring(CollectiveKind::kAllReduce, 8, 8e6);
  CHECK(s.steps == 14);
  REQUIRE(s.transfers.size() == 14 * 8);
  double per_member_sent = 0;
  for (const auto& t : s.transfers) {
    CHECK(t.bytes.value() == 1e6);
    CHECK(t.dst == (t.src + 1) % 8);
    if (t.src == 3) per_member_sent += t.bytes.value();
  }
  // Each member sends 2(n-1)/n of the buffer, the bandwidth term of the closed form.
  CHECK(per_member_sent == 2.0 * 7 / 8 * 8e6);
  // Step k of member i waits for what member i-1 sent it in step k-1 and for its own previous send.
  const auto& t = s.transfers[5 * 8 + 0];
  CHECK(t.step == 5);
  CHECK(t.after == std::vector<uint32_t>{4 * 8 + 7, 4 * 8 + 0});
  CHECK(s.transfers[0].after.empty());
}

TEST_CASE("reduce-scatter and all-gather take n-1 steps, one member needs no transfer") {
  CHECK(ring(CollectiveKind::kReduceScatter, 4, 4e6).steps == 3);
  CHECK(ring(CollectiveKind::kAllGather, 4, 4e6).transfers.size() == 12);
  auto single = ring(CollectiveKind::kAllReduce, 1, 4e6);
  CHECK(single.steps == 0);
  CHECK(single.transfers.empty());
  // An all-to-all has no ring form: the ring policy schedules it direct, one step of n(n-1) transfers.
  auto a2a = ring(CollectiveKind::kAllToAll, 4, 4e6);
  CHECK(a2a.algorithm == "direct");
  CHECK(a2a.steps == 1);
  CHECK(a2a.transfers.size() == 12);
}
