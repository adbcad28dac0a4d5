// Memory pools: concurrent readers share the pool's ports; each access pays the load latency once.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"
#include "topology/routing.hpp"

using namespace zs;

namespace {
topology::Machine pooled_machine(bool with_pool, int pools = 1) {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("fast", test::link_model("450GB/s", "0.5us"));
  models.memories.emplace("cxl", test::memory_pool_model(4, "16GB/s", "250ns"));
  nlohmann::json topo = {{"kind", "topology"}, {"name", "pooled"},    {"generator", "single-switch"},
                         {"units", 8},         {"unit_model", "gpu"}, {"link_model", "fast"}};
  if (with_pool) topo["memory_pools"] = {{"model", "cxl"}, {"count", pools}};
  core::JsonObject o(topo, "t.json", "");
  return topology::build_machine(o, models);
}

/// The ranks on the machine's units in order, each on the pool given.
class PoolsGiven final : public policy::PlacementPolicy {
 public:
  explicit PoolsGiven(std::vector<topology::NodeId> pools) : pools_(std::move(pools)) {}
  std::string_view name() const override { return "pools-given"; }
  policy::Placement place(const policy::PlacementRequest& request) const override {
    const auto& units = request.machine.topology.units();
    policy::Placement p =
        policy::place_on_units({units.begin(), units.begin() + long(pools_.size())}, request.machine);
    p.pool_of_rank = pools_;
    return p;
  }

 private:
  std::vector<topology::NodeId> pools_;
};

workload::Trace readers(uint32_t n, workload::MemoryDirection direction, double bytes) {
  workload::Trace t;
  t.name = "readers";
  t.mesh = workload::Mesh({{"dp", n}});
  t.streams = {"memory"};
  t.roles = {{"rank", {{"prefetch", "forward", 0, {}, workload::MemoryOp{direction, core::Bytes(bytes)}}}}};
  return t;
}
}  // namespace

TEST_CASE("n units reading one pool at once each get the pool bandwidth / n") {
  auto m = pooled_machine(true);
  REQUIRE(m.topology.memories().size() == 1);
  const double S = 1e9, pool_bw = 4 * 16e9;
  auto route = topology::shortest_route(m.topology, m.topology.memories()[0], m.topology.units()[0]);
  const double latency = topology::route_latency(m, route).value();
  CHECK(latency == zs::test::approx(0.5e-6 + 250e-9).epsilon(1e-12));  // the load latency, once
  for (uint32_t n : {1u, 2u, 4u, 8u}) {
    CAPTURE(n);
    for (auto dir : {workload::MemoryDirection::kRead, workload::MemoryDirection::kWrite}) {
      auto r = engine::simulate(m, readers(n, dir, S), policy::LinearPlacement(), policy::RingCollective());
      CHECK(r.replay.iteration_time.value() == zs::test::approx(latency + S / (pool_bw / n)).epsilon(0.01));
      CHECK(r.replay.memory_activities == n);
      // With nothing else to do, the whole iteration is a memory stall.
      CHECK(r.replay.ranks[0].memory_stall.value() == zs::test::approx(r.replay.iteration_time.value()));
      // The pool's ports move n S bytes at its bandwidth, busy all but the load latency.
      CHECK(r.utilization.pool_max ==
            zs::test::approx(n * S / (pool_bw * r.replay.iteration_time.value())).epsilon(1e-9));
      CHECK(r.utilization.pool_max > 0.9);
    }
  }
}

TEST_CASE("a memory move on a machine without pools is an input error") {
  auto m = pooled_machine(false);
  CHECK_THROWS_WITH(engine::simulate(m, readers(2, workload::MemoryDirection::kRead, 1e6),
                                     policy::LinearPlacement(), policy::RingCollective()),
                    "readers: /roles/0/ops/0: a memory move, but machine \"pooled\" has no memory pool");
}

TEST_CASE("ranks keeping more in a pool than it holds: an input error naming the pool and the sizes") {
  auto m = pooled_machine(true);
  // 8 ranks write 200 GB each to a pool of 1 TB.
  CHECK_THROWS_WITH(
      engine::simulate(m, readers(8, workload::MemoryDirection::kWrite, 200e9), policy::LinearPlacement(),
                       policy::RingCollective()),
      "readers: /roles: capacity: memory pool \"pool0\" (a \"cxl\") holds 1TB, but the 8 ranks using it keep "
      "1.6TB there (the larger of what each writes and reads back per iteration)");
  // 125 GB each fits exactly.
  CHECK_NOTHROW(engine::simulate(m, readers(8, workload::MemoryDirection::kWrite, 125e9),
                                 policy::LinearPlacement(), policy::RingCollective()));
}

TEST_CASE(
    "collapsed fidelity charges a memory move at the pace of the slowest rank the representative stands "
    "for") {
  // Rank 0, the representative of the 8 ranks, is alone on pool 1; ranks 1-7 share pool 0, a seventh of
  // its bandwidth each. Exact fidelity ends when the slowest rank does; collapsed charges the
  // representative that slowest time too.
  auto m = pooled_machine(true, 2);
  const auto pool0 = m.topology.memories()[0], pool1 = m.topology.memories()[1];
  const PoolsGiven placement({pool1, pool0, pool0, pool0, pool0, pool0, pool0, pool0});
  const double S = 1e9, pool_bw = 4 * 16e9;
  auto route = topology::shortest_route(m.topology, pool0, m.topology.units()[1]);
  const double latency = topology::route_latency(m, route).value();
  const auto trace = readers(8, workload::MemoryDirection::kRead, S);
  for (auto fidelity : {engine::Fidelity::kExact, engine::Fidelity::kCollapsed}) {
    CAPTURE(engine::to_string(fidelity));
    auto r = engine::simulate(m, trace, placement, policy::RingCollective(), {}, fidelity);
    CHECK(r.replay.iteration_time.value() == zs::test::approx(latency + 7 * S / pool_bw).epsilon(0.01));
  }
}
