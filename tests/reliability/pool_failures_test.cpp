// Memory pools as failure components: the job's pools, where a failed pool's ranks keep their data, and the
// goodput arithmetic of running with it moved or waiting for the repair.
#include <doctest/doctest.h>

#include <memory>

#include <string>
#include <vector>

#include "reliability/goodput_simulator.hpp"
#include "reliability/job_components.hpp"
#include "reliability/pool_fallback.hpp"
#include "support/approx.hpp"
#include "support/quiet_rates.hpp"
#include "support/scripted_job.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// A rate table of memory pools that practically never fail on their own: scripted failures only.
reliability::FailureRates quiet_pools() {
  const nlohmann::json table = test::quiet_parts({{"cxl", "memory-pool"}});  // outlives the reader
  core::JsonObject o(table, "quiet.json", "");
  return reliability::FailureRates::from_json(o);
}

/// 2 racks of 2 units under one spine. Pool "pool0" hangs on rack0's switch and "pool1" on rack1's (4
/// links apart); "pool2" and "pool3" hang on the spine (3 links from either rack pool). Every pool holds
/// 1 TB.
struct PooledRacks {
  topology::Machine machine;
  std::vector<topology::NodeId> pools;
};

PooledRacks pooled_racks() {
  PooledRacks p;
  auto& m = p.machine;
  m.name = "pooled-racks";
  m.generator = "test";
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("400GB/s", "1us"));
  m.memory_models.push_back(test::memory_pool_model(4, "64GB/s", "250ns"));
  auto& t = m.topology;
  const auto spine = t.add_switch("spine");
  std::vector<topology::NodeId> racks;
  for (int r = 0; r < 2; ++r) {
    racks.push_back(t.add_switch("rack" + std::to_string(r) + "-switch"));
    t.add_link(racks.back(), spine, 0);
    for (int u = 0; u < 2; ++u)
      t.add_link(t.add_unit("rack" + std::to_string(r) + "-unit" + std::to_string(u), 0), racks.back(), 0);
  }
  for (int k = 0; k < 4; ++k) {
    p.pools.push_back(t.add_memory("pool" + std::to_string(k), 0));
    t.add_link(p.pools.back(), k < 2 ? racks[k] : spine, 0);
  }
  return p;
}

/// Ranks 0 and 1 on rack0 using pool0, ranks 2 and 3 on rack1 using pool1, each keeping `bytes`.
reliability::JobComponents::FabricUse pool_use(const PooledRacks& p, double bytes) {
  reliability::JobComponents::FabricUse use;
  use.pool_of_rank = {p.pools[0], p.pools[0], p.pools[1], p.pools[1]};
  use.pool_bytes_of_rank.assign(4, bytes);
  return use;
}

std::vector<topology::NodeId> units_of(const topology::Machine& m) {
  return {m.topology.units().begin(), m.topology.units().end()};
}

}  // namespace

TEST_CASE("a job's memory pools are those its ranks keep data in, named by the topology") {
  const auto p = pooled_racks();
  const auto rates = quiet_pools();
  const reliability::JobComponents job(rates, p.machine, units_of(p.machine), pool_use(p, 0.4e12));
  REQUIRE(job.instances(0) == 2);
  CHECK(job.instance_name(0, 0) == "pool0");
  CHECK(job.instance_name(0, 1) == "pool1");
  CHECK(job.memory_pool(1) == p.pools[1]);
  CHECK(job.find_instance(0, "pool1") == 1u);
  CHECK(!job.find_instance(0, "pool2"));  // on the machine, but no rank keeps data in it
  CHECK(job.units_taken(0, 0) == 0);
  CHECK(job.ranks_taken(0, 0).empty());
  // Ranks that keep nothing in their pools give the job no pool.
  const reliability::JobComponents none(rates, p.machine, units_of(p.machine), pool_use(p, 0));
  CHECK(none.instances(0) == 0);
}

TEST_CASE("a failed pool's ranks move to the nearest healthy pools that have room for them") {
  const auto p = pooled_racks();
  // From pool0: pool2 and pool3 are 3 links away (rack0-switch, spine), pool1 4 (through rack1-switch).
  CHECK(reliability::pools_by_distance(p.machine, p.pools[0]) ==
        std::vector<topology::NodeId>{p.pools[2], p.pools[3], p.pools[1]});
  const auto rates = quiet_pools();
  {
    // 0.4 TB each: both of pool0's ranks fit in pool2 (1 TB).
    const reliability::JobComponents job(rates, p.machine, units_of(p.machine), pool_use(p, 0.4e12));
    CHECK(job.pools_without({p.pools[0]}) ==
          std::vector<topology::NodeId>{p.pools[2], p.pools[2], p.pools[1], p.pools[1]});
  }
  // 0.6 TB each: pool2 takes one of them, pool3 the other; with pool1 down as well, its ranks find 0.4 TB
  // left in pool2 and pool3, and pool0 is down: no room.
  const reliability::JobComponents job(rates, p.machine, units_of(p.machine), pool_use(p, 0.6e12));
  CHECK(job.pools_without({p.pools[0]}) ==
        std::vector<topology::NodeId>{p.pools[2], p.pools[3], p.pools[1], p.pools[1]});
  CHECK(job.pools_without({p.pools[1]}) ==
        std::vector<topology::NodeId>{p.pools[0], p.pools[0], p.pools[2], p.pools[3]});
  CHECK(!job.pools_without({p.pools[0], p.pools[1]}));
}

TEST_CASE("a failed pool: the job restarts with its ranks' data moved until the repair, as the engine says") {
  const auto p = pooled_racks();
  const auto rates = quiet_pools();
  const auto job = std::make_shared<const reliability::JobComponents>(rates, p.machine, units_of(p.machine),
                                                                      pool_use(p, 0.6e12));
  auto cfg = test::scripted_job(job);
  // pool0 at 5,000 s; pool1 at 8,000 s while pool0 is still out (no room for its ranks: the job waits
  // for pool1's repair at 18,000 s).
  cfg.scripted = {{5000, 0, 0, true}, {8000, 0, 1, true}};
  std::vector<std::vector<uint64_t>> states;
  auto degraded = std::make_shared<zs::reliability::DegradedIterations>(
      [&](const std::vector<const reliability::Degradation*>& active) {
        states.emplace_back();
        for (const auto* d : active) {
          CHECK(d->kind == reliability::Degradation::Kind::kPool);
          states.back().push_back(d->id);
        }
        return 1.25;  // its ranks' moves cross the spine
      });
  cfg.degraded = degraded;
  const auto run = reliability::simulate_goodput_once(rates, cfg, 1e9, 1, true);
  CHECK(states == std::vector<std::vector<uint64_t>>{{p.pools[0]}});  // one state, simulated once
  REQUIRE(run.timeline.size() == 2);
  CHECK(run.timeline[0].action ==
        "restart with its ranks' data in the nearest pools with room until repaired (scripted)");
  CHECK(run.timeline[0].instance_name == "pool0");
  CHECK(run.timeline[1].action ==
        "wait for repair (no healthy memory pool has room for its ranks' data) (scripted)");
  CHECK(run.interruptions == 2);
  CHECK(run.waiting == test::approx(10000));
  CHECK(run.detection == test::approx(120));
  CHECK(run.restart == test::approx(1200));
  // Degraded (80% speed) from 5,660 s to 8,000 s, and after pool1's wait (back at 18,660 s) pool0 was
  // repaired at 15,000 s: healthy again.
  CHECK(run.degraded == test::approx((8000 - 5660) * 0.2));
  CHECK(run.recompute == test::approx(5000 + (8000 - 5660) * 0.8));
  CHECK(run.useful == test::approx(100000 - 18660));  // nothing before the second restart was checkpointed
}
