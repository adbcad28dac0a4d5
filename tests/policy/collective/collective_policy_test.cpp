// The collective library's base latency per collective: which policies are its ring or tree, and when
// the fixed cost applies.
#include <doctest/doctest.h>

#include "policy/collective/auto_collective.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/protocol_choice.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using hw::CollectiveProtocol;
using workload::CollectiveKind;

namespace {

topology::Machine machine(bool step_latency) {
  auto m = test::single_switch_machine(8, test::unit_model("1PFLOPS", 1, "0s"),
                                       test::link_model("100GB/s", "0.5us", "10us", "4us", "2us"));
  m.step_latency = step_latency;
  return m;
}

policy::CollectiveRequest request(const topology::Machine& m, CollectiveKind kind, uint32_t members,
                                  double bytes = 1024) {
  policy::CollectiveRequest r{kind, core::Bytes(bytes), {}, &m};
  for (uint32_t i = 0; i < members; ++i) r.member_units.push_back(m.topology.units()[i]);
  return r;
}

/// collective_base_latency in us.
double base_us(const policy::CollectivePolicy& p, const policy::CollectiveRequest& r,
               CollectiveProtocol protocol = CollectiveProtocol::kSimple) {
  return policy::collective_base_latency(p, r, protocol).value() * 1e6;
}

}  // namespace

TEST_CASE("NCCL 2.19's base latencies: ring 8.4 / 14 / 6.6 us, tree 0 / 14 / 6.8 us (Simple, LL128, LL)") {
  using hw::LibraryAlgorithm;
  const auto us = [](LibraryAlgorithm a, CollectiveProtocol p) {
    return hw::base_latency(a, p).value() * 1e6;
  };
  CHECK(us(LibraryAlgorithm::kRing, CollectiveProtocol::kSimple) == doctest::Approx(8.4));
  CHECK(us(LibraryAlgorithm::kRing, CollectiveProtocol::kLl128) == doctest::Approx(14.0));
  CHECK(us(LibraryAlgorithm::kRing, CollectiveProtocol::kLl) == doctest::Approx(6.6));
  CHECK(us(LibraryAlgorithm::kTree, CollectiveProtocol::kSimple) == 0.0);
  CHECK(us(LibraryAlgorithm::kTree, CollectiveProtocol::kLl128) == doctest::Approx(14.0));
  CHECK(us(LibraryAlgorithm::kTree, CollectiveProtocol::kLl) == doctest::Approx(6.8));
}

TEST_CASE("the base latency follows the library algorithm a policy's schedule is") {
  const auto m = machine(true);
  const auto all_reduce = request(m, CollectiveKind::kAllReduce, 8);
  const auto all_gather = request(m, CollectiveKind::kAllGather, 8);
  CHECK(base_us(policy::RingCollective(), all_reduce) == doctest::Approx(8.4));
  CHECK(base_us(policy::RingCollective(), all_gather, CollectiveProtocol::kLl) == doctest::Approx(6.6));
  CHECK(base_us(policy::ChannelRingsCollective(), all_reduce, CollectiveProtocol::kLl128) ==
        doctest::Approx(14.0));
  // The double binary tree reduces as NCCL's tree, but gathers and scatters on its ring.
  CHECK(base_us(policy::DoubleBinaryTreeCollective(), all_reduce) == 0.0);
  CHECK(base_us(policy::DoubleBinaryTreeCollective(), all_reduce, CollectiveProtocol::kLl) ==
        doctest::Approx(6.8));
  CHECK(base_us(policy::DoubleBinaryTreeCollective(), all_gather) == doctest::Approx(8.4));
  // Schedules that are none of the library's: no base latency.
  CHECK(base_us(policy::RecursiveCollective(), all_reduce) == 0.0);
  CHECK(base_us(policy::TreeCollective(), request(m, CollectiveKind::kBroadcast, 8)) == 0.0);
  CHECK(base_us(policy::HierarchicalCollective(), all_reduce) == 0.0);
  CHECK(base_us(policy::RingCollective(), request(m, CollectiveKind::kAllToAll, 8)) == 0.0);
  // A protocol decorator keeps the wrapped policy's algorithm.
  const policy::ProtocolChoice ll(std::make_unique<policy::RingCollective>(), policy::ProtocolSetting::kLl);
  CHECK(base_us(ll, all_reduce, CollectiveProtocol::kLl) == doctest::Approx(6.6));
}

TEST_CASE("auto's base latency is its pick's") {
  const auto m = machine(true);
  // Small on one switch: recursive doubling (no base latency); large over 48 members: the ring.
  const auto small = request(m, CollectiveKind::kAllReduce, 8);
  REQUIRE(policy::AutoCollective().schedule(small).algorithm == "auto:recursive");
  CHECK(base_us(policy::AutoCollective(), small) == 0.0);
  const auto gather = request(m, CollectiveKind::kAllGather, 6, 1e9);
  REQUIRE(policy::AutoCollective().schedule(gather).algorithm == "auto:ring");
  CHECK(base_us(policy::AutoCollective(), gather) == doctest::Approx(8.4));
}

TEST_CASE("no base latency with the step latency off or for one member") {
  const auto off = machine(false);
  CHECK(base_us(policy::RingCollective(), request(off, CollectiveKind::kAllReduce, 8)) == 0.0);
  const auto on = machine(true);
  CHECK(base_us(policy::RingCollective(), request(on, CollectiveKind::kAllReduce, 1)) == 0.0);
}
