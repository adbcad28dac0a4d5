// The peer rule of peer-memory checkpoints and the trace of one snapshot.
#include <doctest/doctest.h>

#include "workload/peer_checkpoint.hpp"

using namespace zs;

namespace {
workload::Trace job(std::vector<workload::MeshAxis> axes) {
  workload::Trace t;
  t.name = "job";
  t.mesh = workload::Mesh(std::move(axes));
  t.streams = {"compute"};
  t.role_axis = "pp";
  t.roles = {{"stage0", {}, std::nullopt}, {"stage1", {}, std::nullopt}};
  return t;
}
}  // namespace

TEST_CASE("the peer is half the data-parallel ring away, on the dp axis or the dp communicator's") {
  auto t = job({{"pp", 2}, {"dp", 4}, {"tp", 2}});
  auto rule = workload::peer_rule(t);
  REQUIRE(rule);
  CHECK(rule->axis == 1);
  CHECK(rule->offset == 2);
  CHECK(rule->peer_of(t.mesh, 0) == 4);    // dp 0 -> dp 2 (stride 2)
  CHECK(rule->peer_of(t.mesh, 5) == 1);    // dp 2 -> dp 0, tp 1
  CHECK(rule->peer_of(t.mesh, 15) == 11);  // stage 1, dp 3 -> dp 1

  auto moe = job({{"pp", 2}, {"ep", 3}, {"tp", 2}});
  moe.communicators = {{"dp", {"ep"}}};
  rule = workload::peer_rule(moe);
  REQUIRE(rule);
  CHECK(rule->axis == 1);
  CHECK(rule->offset == 1);                // 3 / 2, rounded down
  CHECK(rule->peer_of(moe.mesh, 4) == 0);  // ep 2 -> ep 0 (wraps)

  CHECK_FALSE(workload::peer_rule(job({{"pp", 2}, {"dp", 1}, {"tp", 4}})));
  CHECK_FALSE(workload::peer_rule(job({{"pp", 2}, {"tp", 4}})));
}

TEST_CASE("a snapshot copies the state in HBM while sending it to the peer and receiving the peer-of's") {
  const auto t = job({{"pp", 2}, {"dp", 4}, {"tp", 2}});
  const auto rule = *workload::peer_rule(t);
  const auto s = workload::peer_snapshot_trace(t, rule, {core::Bytes(10e9), core::Bytes(6e9)});
  CHECK(s.mesh.size() == 16);
  CHECK(s.role_axis == "pp");
  REQUIRE(s.roles.size() == 2);
  CHECK(s.streams.size() == 3);
  const auto& ops = s.roles[1].ops;
  REQUIRE(ops.size() == 3);
  const auto& copy = std::get<workload::ComputeOp>(ops[0].body);
  CHECK(copy.bytes.value() == 12e9);  // read and write 6 GB
  CHECK(copy.flops.value() == 0);
  const auto& send = std::get<workload::P2POp>(ops[1].body);
  const auto& recv = std::get<workload::P2POp>(ops[2].body);
  CHECK(send.direction == workload::P2PDirection::kSend);
  CHECK(send.axis == "dp");
  CHECK(send.offset == 2);
  CHECK(send.wrap);
  CHECK(send.bytes.value() == 6e9);
  CHECK(recv.direction == workload::P2PDirection::kRecv);
  CHECK(recv.offset == -2);
  CHECK(ops[0].stream != ops[1].stream);
  CHECK(ops[1].stream != ops[2].stream);
  CHECK(ops[1].deps.empty());
  CHECK_NOTHROW(workload::validate(s, "snapshot"));
}
