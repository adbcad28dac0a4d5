// Ring collectives on a uniform, uncontended single-switch topology against their closed forms.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/simulation.hpp"
#include "policy/collective/auto_collective.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"
#include "topology/routing.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {
struct Timing {
  double simulated, alpha, bandwidth;
};

/// n units on one switch over 100 GB/s, 1 us links (alpha = 2 us unit to unit).
topology::Machine switch_machine(uint32_t n) {
  return test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                     test::link_model("100GB/s", "1us"));
}

/// Simulated time of one collective with `policy`, s.
double run_with(const policy::CollectivePolicy& policy, CollectiveKind kind, uint32_t n, double bytes) {
  return engine::simulate(switch_machine(n), test::one_collective(kind, n, bytes), policy::LinearPlacement(),
                          policy)
      .replay.iteration_time.value();
}

Timing run_collective(CollectiveKind kind, uint32_t n, double bytes) {
  const auto machine = switch_machine(n);
  Timing out{run_with(policy::RingCollective(), kind, n, bytes), 0, 0};
  if (n > 1) {
    const auto& units = machine.topology.units();
    auto route = topology::shortest_route(machine.topology, units[0], units[1]);
    out.alpha = topology::route_latency(machine, route).value();
    out.bandwidth = topology::route_bandwidth(machine, route).value();
  }
  return out;
}
}  // namespace

TEST_CASE("ring all-reduce takes 2(n-1) alpha + 2(n-1)/n S/B within 1%") {
  for (uint32_t n : {2u, 8u, 64u}) {
    for (double S : {1024.0 * 1024, 1024.0 * 1024 * 1024}) {
      CAPTURE(n);
      CAPTURE(S);
      auto t = run_collective(CollectiveKind::kAllReduce, n, S);
      CHECK(t.alpha == 2e-6);  // two links of 1 us
      CHECK(t.bandwidth == 100e9);
      double closed = 2.0 * (n - 1) * t.alpha + 2.0 * (n - 1) / n * S / t.bandwidth;
      CHECK(t.simulated == zs::test::approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("ring reduce-scatter and all-gather take (n-1) alpha + (n-1)/n S/B within 1%") {
  for (auto kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
    for (uint32_t n : {2u, 8u, 64u}) {
      double S = 256.0 * 1024 * 1024;
      auto t = run_collective(kind, n, S);
      double closed = (n - 1) * t.alpha + double(n - 1) / n * S / t.bandwidth;
      CHECK(t.simulated == zs::test::approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("a one-member communicator completes at once") {
  CHECK(run_collective(CollectiveKind::kAllReduce, 1, 1e9).simulated == 0.0);
}

TEST_CASE("direct all-to-all takes alpha + (n-1)/n S/B within 1% (each uplink carries n-1 flows)") {
  for (uint32_t n : {2u, 8u, 32u}) {
    CAPTURE(n);
    double S = 64.0 * 1024 * 1024;
    auto t = run_collective(CollectiveKind::kAllToAll, n, S);
    double closed = t.alpha + double(n - 1) / n * S / t.bandwidth;
    CHECK(t.simulated == zs::test::approx(closed).epsilon(0.01));
  }
}

namespace {
/// An expert-parallel layer on n ranks: dispatch all-to-all-v, expert compute scaled by the tokens
/// each rank received, combine. Returns the replay and the dispatch matrix the engine must have drawn.
struct ExpertRun {
  engine::SimulationResult result;
  std::vector<std::vector<uint64_t>> tokens;
};
ExpertRun run_expert_layer(uint32_t n, const workload::ExpertRoutingModel& routing) {
  auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                             test::link_model("100GB/s", "1us"));
  workload::ExpertDispatch d{routing, 4096, 4 * n, 2, core::Bytes(8192), 7, false};
  workload::ExpertDispatch back = d;
  back.combine = true;
  const core::Bytes nominal(4096.0 * 2 * 8192);
  workload::Trace t;
  t.name = "experts";
  t.mesh = workload::Mesh({{"ep", n}});
  t.streams = {"compute"};
  workload::ComputeOp experts{core::Flops(1e12), core::Bytes(0.0)};
  experts.scaled_by = 0;
  t.roles = {
      {"rank",
       {{"dispatch", "forward", 0, {}, workload::CollectiveOp{CollectiveKind::kAllToAll, "ep", nominal, d}},
        {"experts", "forward", 0, {0}, experts},
        {"combine",
         "forward",
         0,
         {1},
         workload::CollectiveOp{CollectiveKind::kAllToAll, "ep", nominal, back}}}}};
  workload::validate(t, "experts");
  ExpertRun out{engine::simulate(machine, t, policy::LinearPlacement(), policy::RingCollective()), {}};
  out.tokens = workload::dispatch_matrix(n, 4096, 4 * n, 2, routing, 7 * 0x9E3779B97F4A7C15ull + 0);
  return out;
}
}  // namespace

TEST_CASE(
    "expert dispatch: compute scales with the tokens a rank received, a hot expert is the critical path") {
  workload::ExpertRoutingModel zipf;
  zipf.distribution = workload::ExpertRoutingModel::Distribution::kZipf;
  zipf.zipf_exponent = 1.2;
  auto run = run_expert_layer(8, zipf);
  const auto& r = run.result.replay;
  // Rank d's expert compute: 1 TFLOP x (tokens received / nominal 4096 x 2) on a 1 PFLOP/s unit.
  double hottest = 0;
  uint32_t hot_rank = 0;
  for (uint32_t d = 0; d < 8; ++d) {
    double received = 0;
    for (uint32_t s = 0; s < 8; ++s) received += double(run.tokens[s][d]);
    const double expected = 1e12 * received / (4096.0 * 2) / 1e15;
    CHECK(r.ranks[d].compute.value() == zs::test::approx(expected).epsilon(1e-9));
    if (received > hottest) {
      hottest = received;
      hot_rank = d;
    }
  }
  CHECK(hot_rank == 0);  // Zipf puts the most weight on expert 0, hosted by rank 0
  CHECK(r.ranks[0].compute.value() > 2.0 * r.ranks[7].compute.value());
  CHECK(r.transfer_activities > 0);
}

TEST_CASE("uniform routing: every rank's expert compute is near the nominal load") {
  auto run = run_expert_layer(8, workload::ExpertRoutingModel{});
  for (const auto& rank : run.result.replay.ranks)
    CHECK(rank.compute.value() == zs::test::approx(1e-3).epsilon(0.1));
}

TEST_CASE(
    "Rabenseifner: all-reduce 2 lg(p) alpha + 2 (p-1)/p S/B, reduce-scatter and all-gather half, within 1%") {
  const double alpha = 2e-6, B = 100e9;
  for (uint32_t n : {2u, 8u, 64u})
    for (double S : {1024.0 * 1024, 256.0 * 1024 * 1024}) {
      CAPTURE(n);
      CAPTURE(S);
      const double lg = std::log2(double(n));
      CHECK(run_with(policy::RecursiveCollective(), CollectiveKind::kAllReduce, n, S) ==
            zs::test::approx(2 * lg * alpha + 2.0 * (n - 1) / n * S / B).epsilon(0.01));
      for (auto kind : {CollectiveKind::kReduceScatter, CollectiveKind::kAllGather})
        CHECK(run_with(policy::RecursiveCollective(), kind, n, S) ==
              zs::test::approx(lg * alpha + double(n - 1) / n * S / B).epsilon(0.01));
    }
  // Not a power of two: the 2 extra members fold in and get the result back: 2 (alpha + S/B) more.
  const double S = 64.0 * 1024 * 1024;
  CHECK(run_with(policy::RecursiveCollective(), CollectiveKind::kAllReduce, 10, S) ==
        zs::test::approx(2 * 3 * alpha + 2.0 * 7 / 8 * S / B + 2 * (alpha + S / B)).epsilon(0.01));
}

TEST_CASE("binomial tree: all-reduce 2 ceil(lg n) (alpha + S/B), broadcast and reduce half, within 1%") {
  const double alpha = 2e-6, B = 100e9;
  for (uint32_t n : {2u, 7u, 8u, 64u}) {
    CAPTURE(n);
    const double S = 4.0 * 1024 * 1024, steps = std::ceil(std::log2(double(n)));
    CHECK(run_with(policy::TreeCollective(), CollectiveKind::kAllReduce, n, S) ==
          zs::test::approx(2 * steps * (alpha + S / B)).epsilon(0.01));
    for (auto kind : {CollectiveKind::kBroadcast, CollectiveKind::kReduce})
      CHECK(run_with(policy::TreeCollective(), kind, n, S) ==
            zs::test::approx(steps * (alpha + S / B)).epsilon(0.01));
  }
}

TEST_CASE(
    "small messages favour the tree and recursive doubling over the ring, large ones do not favour the "
    "tree") {
  const double small = 8 * 1024, large = 256.0 * 1024 * 1024;
  const uint32_t n = 64;
  const double ring_small = run_with(policy::RingCollective(), CollectiveKind::kAllReduce, n, small);
  CHECK(run_with(policy::TreeCollective(), CollectiveKind::kAllReduce, n, small) < 0.2 * ring_small);
  CHECK(run_with(policy::RecursiveCollective(), CollectiveKind::kAllReduce, n, small) < 0.2 * ring_small);
  CHECK(run_with(policy::TreeCollective(), CollectiveKind::kAllReduce, n, large) >
        2 * run_with(policy::RingCollective(), CollectiveKind::kAllReduce, n, large));
}

TEST_CASE("auto is never more than 5% slower than the best fixed algorithm on a grid of sizes and groups") {
  for (uint32_t n : {2u, 6u, 8u, 32u})
    for (double S : {4.0 * 1024, 256.0 * 1024, 16.0 * 1024 * 1024, 512.0 * 1024 * 1024})
      for (auto kind :
           {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
        CAPTURE(n);
        CAPTURE(S);
        CAPTURE(int(kind));
        double best = run_with(policy::RingCollective(), kind, n, S);
        if ((n & (n - 1)) == 0 || kind == CollectiveKind::kAllReduce)
          best = std::min(best, run_with(policy::RecursiveCollective(), kind, n, S));
        if (kind == CollectiveKind::kAllReduce)
          best = std::min(best, run_with(policy::TreeCollective(), kind, n, S));
        CHECK(run_with(policy::AutoCollective(), kind, n, S) <= 1.05 * best);
      }
}

TEST_CASE("link utilization: a ring all-reduce keeps every link direction busy 2(n-1)/n S/B of the time") {
  const uint32_t n = 8;
  const double S = 1024.0 * 1024 * 1024, B = 100e9;
  auto r = engine::simulate(switch_machine(n), test::one_collective(CollectiveKind::kAllReduce, n, S),
                            policy::LinearPlacement(), policy::RingCollective());
  const double T = r.replay.iteration_time.value();
  const auto& u = r.utilization;
  CHECK(u.links_active == 2 * n);  // each unit's link to the switch, both ways
  CHECK(u.link_max == zs::test::approx(2.0 * (n - 1) / n * S / B / T).epsilon(1e-9));
  CHECK(u.link_mean_active == zs::test::approx(u.link_max).epsilon(1e-9));
  CHECK(u.links_over_half == 2 * n);
  CHECK(u.compute_mean == 0.0);
  double carried = 0;
  for (double b : r.replay.link_bytes) carried += b;
  CHECK(carried == zs::test::approx(2.0 * n * 2.0 * (n - 1) / n * S));  // every chunk crosses two links
}
