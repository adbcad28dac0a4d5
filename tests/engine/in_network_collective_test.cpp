// In-network, hierarchical and double-binary-tree collectives against their closed forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "engine/simulation.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/in_network_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {

double run(const topology::Machine& machine, const policy::CollectivePolicy& policy, CollectiveKind kind,
           uint32_t n, double bytes) {
  return engine::simulate(machine, test::one_collective(kind, n, bytes), policy::LinearPlacement(), policy)
      .replay.iteration_time.value();
}

/// n units on one switch that reduces at `eta` of line rate; 100 GB/s, 1 us links, no switch latency.
topology::Machine reducing_switch(uint32_t n, double eta) {
  return test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                     test::link_model("100GB/s", "1us"), test::switch_model(64, "0s", eta));
}

/// d servers of m units: each server's units on an NVLink-like switch (400 GB/s, 1 us links), unit j of
/// every server on rail switch j (50 GB/s, 1 us links).
topology::Machine servers(uint32_t d, uint32_t m) {
  topology::Machine machine;
  machine.name = "servers";
  machine.generator = "test";
  machine.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  machine.link_models.push_back(test::link_model("400GB/s", "1us"));
  machine.link_models.push_back(test::link_model("50GB/s", "1us"));
  auto& topo = machine.topology;
  std::vector<topology::NodeId> rails;
  for (uint32_t j = 0; j < m; ++j) rails.push_back(topo.add_switch("rail" + std::to_string(j)));
  for (uint32_t s = 0; s < d; ++s) {
    auto nvswitch = topo.add_switch("nvswitch" + std::to_string(s));
    for (uint32_t j = 0; j < m; ++j) {
      auto unit = topo.add_unit("s" + std::to_string(s) + "u" + std::to_string(j), 0);
      topo.add_link(unit, nvswitch, 0);
      topo.add_link(unit, rails[j], 1);
    }
  }
  return machine;
}

}  // namespace

TEST_CASE("in-network all-reduce takes k (alpha + S/(k eta B)) + alpha + S/(k B) whatever n, within 1%") {
  const double alpha = 1e-6, B = 100e9;
  for (double eta : {1.0, 0.5}) {
    for (uint32_t n : {4u, 16u, 64u}) {
      for (double S : {64.0 * 1024 * 1024, 1024.0 * 1024 * 1024}) {
        CAPTURE(eta);
        CAPTURE(n);
        CAPTURE(S);
        policy::CollectiveOptions options;
        const double k = options.chunks_for(S);
        const double closed = k * (alpha + S / k / (eta * B)) + alpha + S / k / B;
        const double t = run(reducing_switch(n, eta), policy::InNetworkCollective(options),
                             CollectiveKind::kAllReduce, n, S);
        CHECK(t == test::approx(closed).epsilon(0.01));
      }
    }
  }
}

TEST_CASE("with step latency, in-network pays it on the first chunk's way up and down only") {
  // Every chunk goes up at eta B and comes down at B; the chunks behind the first are pipelined and pay
  // the link's 1 us, the first pays the collective library's 20 us each way. The up chain then takes
  // L + x + (k-1)(alpha + x), and the last chunk comes down in alpha + y; the down chain, when it paces,
  // 2 L + x + y + (k-1)(alpha + y) (exact fidelity). Charged on every chunk, it would add k (L - alpha).
  const double alpha = 1e-6, L = 20e-6, B = 100e9, S = 64.0 * 1024 * 1024;
  const uint32_t n = 8;
  for (double eta : {1.0, 0.5}) {
    CAPTURE(eta);
    auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                               test::link_model("100GB/s", "1us", "20us"),
                                               test::switch_model(64, "0s", eta));
    machine.step_latency = true;
    policy::CollectiveOptions options;
    const double k = options.chunks_for(S), x = S / k / (eta * B), y = S / k / B;
    REQUIRE(k == 16);
    // The switch has only units on its ports, a host's NVSwitch: the library's NVLS, whose fixed cost
    // (25 us, NCCL's tuner) comes before the first chunk.
    const double nvls = 25e-6;
    const double up_chain = nvls + L + x + (k - 1) * (alpha + x) + alpha + y;
    const double down_chain = nvls + 2 * L + x + y + (k - 1) * (alpha + y);
    // Collapsed fidelity costs the steps one after another: the first chunk's way down pays its step
    // latency in step 1 beside the second chunk's way up, which sets that step's drain.
    const double stepwise =
        nvls + L + x + L + std::max(x, y) + (k - 2) * (alpha + std::max(x, y)) + alpha + y;
    for (auto fidelity : {engine::Fidelity::kExact, engine::Fidelity::kCollapsed}) {
      CAPTURE(int(fidelity));
      const double t =
          engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, n, S),
                           policy::LinearPlacement(), policy::InNetworkCollective(options), {}, fidelity)
              .replay.iteration_time.value();
      if (fidelity == engine::Fidelity::kExact)
        CHECK(t == test::approx(std::max(up_chain, down_chain)).epsilon(0.01));
      else
        CHECK(t == test::approx(stepwise).epsilon(1e-6));
    }
  }
}

TEST_CASE("in-network reduce-scatter and all-gather move S up and S/n down, or S/n up and S down") {
  const uint32_t n = 16;
  const double S = 512.0 * 1024 * 1024, alpha = 1e-6, B = 100e9;
  const auto machine = reducing_switch(n, 1.0);
  policy::CollectiveOptions options;
  const double k = options.chunks_for(S);
  // The larger direction paces the pipeline; the smaller one adds its last chunk.
  const double closed = k * (alpha + S / k / B) + alpha + S / k / n / B;
  CHECK(run(machine, policy::InNetworkCollective(options), CollectiveKind::kReduceScatter, n, S) ==
        test::approx(closed).epsilon(0.01));
  CHECK(run(machine, policy::InNetworkCollective(options), CollectiveKind::kAllGather, n, S) ==
        test::approx(closed).epsilon(0.01));
}

TEST_CASE("in-network needs a reducing switch: elsewhere it schedules the ring and says so") {
  const auto plain = test::single_switch_machine(8, test::unit_model("1PFLOPS", 1, "0s"),
                                                 test::link_model("100GB/s", "1us"));
  policy::CollectiveRequest request{CollectiveKind::kAllReduce, core::Bytes(1e6), {}, &plain};
  for (uint32_t i = 0; i < 8; ++i) request.member_units.push_back(plain.topology.units()[i]);
  CHECK(policy::InNetworkCollective().schedule(request).algorithm == "ring");
  const auto reducing = reducing_switch(8, 1.0);
  request.machine = &reducing;
  const auto s = policy::InNetworkCollective().schedule(request);
  CHECK(s.algorithm == "in-network");
  CHECK(policy::endpoint_node(reducing, request.member_units, policy::switch_endpoint(8, 3)) ==
        reducing.topology.neighbours(request.member_units[3]).front().first);
}

TEST_CASE(
    "hierarchical all-reduce of one chunk: 2(m-1)(alpha + S/(m B_in)) + 2(d-1)(alpha + S/(m d B_out))") {
  const double alpha = 2e-6, B_in = 400e9, B_out = 50e9;
  for (auto shape : {std::pair{2u, 4u}, {4u, 8u}}) {
    const uint32_t d = shape.first, m = shape.second;
    const auto machine = servers(d, m);
    const uint32_t n = d * m;
    for (double S : {1024.0 * 1024, 4.0 * 1024 * 1024}) {  // up to one 4 MiB chunk: not pipelined
      CAPTURE(d);
      CAPTURE(m);
      CAPTURE(S);
      REQUIRE(policy::CollectiveOptions().chunks_for(S) == 1);
      const double closed = 2 * (m - 1) * (alpha + S / m / B_in) + 2 * (d - 1) * (alpha + S / m / d / B_out);
      const double t = run(machine, policy::HierarchicalCollective(), CollectiveKind::kAllReduce, n, S);
      CHECK(t == test::approx(closed).epsilon(0.01));
    }
  }
}

TEST_CASE("hierarchical all-reduce in k chunks: paced by the busier link, between k and k - 1 chunks' pace") {
  // Each chunk puts 2(m-1) S/(k m) on a unit's server link and 2(d-1) S/(k m d) on its rail link; the
  // chunks follow each other, so the busier link paces the collective. Lower bound: all k chunks at that
  // pace without latency. Upper bound: one chunk through every phase, then k - 1 more at the pace with a
  // latency per step.
  const double alpha = 2e-6, B_in = 400e9, B_out = 50e9;
  for (auto shape : {std::pair{2u, 4u}, {4u, 8u}}) {
    const uint32_t d = shape.first, m = shape.second;
    const auto machine = servers(d, m);
    const uint32_t n = d * m;
    const double S = 1024.0 * 1024 * 1024;
    const double k = policy::CollectiveOptions().chunks_for(S);
    CAPTURE(d);
    CAPTURE(m);
    const double in_step = S / k / m / B_in, out_step = S / k / m / d / B_out;
    const double pace = std::max(2 * (m - 1) * in_step, 2 * (d - 1) * out_step);
    const double pace_with_latency =
        std::max(2 * (m - 1) * (alpha + in_step), 2 * (d - 1) * (alpha + out_step));
    const double one_chunk = 2 * (m - 1) * (alpha + in_step) + 2 * (d - 1) * (alpha + out_step);
    const double t = run(machine, policy::HierarchicalCollective(), CollectiveKind::kAllReduce, n, S);
    CHECK(t >= k * pace);
    CHECK(t <= one_chunk + (k - 1) * pace_with_latency);
    // Not pipelined, the phases would add up: k times one chunk.
    CHECK(t < 0.7 * k * one_chunk);
    // The flat ring crosses the slow rails: hierarchical beats it at large messages.
    CHECK(t < 0.5 * run(machine, policy::RingCollective(), CollectiveKind::kAllReduce, n, S));
  }
}

TEST_CASE("with step latency, the hierarchical pipeline pays it once per algorithm step, not per chunk") {
  // Step latencies 3.4 us on the server links and 14 us on the rails (NCCL's NVLink and network values),
  // over routes of two 1 us links. Collapsed fidelity adds exactly the fill's excess over the route
  // latency: 2(m-1)(3.4 - 2) + 2(d-1)(14 - 2) us. The exact replay adds that fill too, and the chunks
  // behind it then settle into a max-min sharing of the phases that may end a little earlier or later;
  // charged per chunk it would add k = 64 times the fill (37% at 2 x 4, 77% at 4 x 8).
  const double S = 1024.0 * 1024 * 1024;
  for (auto shape : {std::pair{2u, 4u}, {4u, 8u}}) {
    const uint32_t d = shape.first, m = shape.second;
    auto machine = servers(d, m);
    machine.link_models[0] = test::link_model("400GB/s", "1us", "3.4us");
    machine.link_models[1] = test::link_model("50GB/s", "1us", "14us");
    const double fill = 2 * (m - 1) * (3.4e-6 - 2e-6) + 2 * (d - 1) * (14e-6 - 2e-6);
    for (auto fidelity : {engine::Fidelity::kCollapsed, engine::Fidelity::kExact}) {
      CAPTURE(d);
      CAPTURE(m);
      CAPTURE(int(fidelity));
      double t[2];
      for (bool on : {false, true}) {
        machine.step_latency = on;
        t[on] = engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, d * m, S),
                                 policy::LinearPlacement(), policy::HierarchicalCollective(), {}, fidelity)
                    .replay.iteration_time.value();
      }
      if (fidelity == engine::Fidelity::kCollapsed)
        CHECK(t[1] - t[0] == test::approx(fill).epsilon(1e-6));
      else
        CHECK(std::abs(t[1] - t[0]) < 0.03 * t[0]);
    }
  }
}

TEST_CASE("channel rings: 2(n-1)(alpha + max(S/(m n B_out), (m-1) S/(m n B_in))) within 1%") {
  // m rings, each leaving every server from a different unit: the m rail links share the crossing.
  const double alpha = 2e-6, B_in = 400e9, B_out = 50e9;
  for (auto shape : {std::pair{2u, 2u}, {4u, 4u}, {8u, 4u}}) {  // m divides d: every crossing on a rail
    const uint32_t d = shape.first, m = shape.second;
    const auto machine = servers(d, m);
    const uint32_t n = d * m;
    for (double S : {1024.0 * 1024, 1024.0 * 1024 * 1024}) {
      CAPTURE(d);
      CAPTURE(m);
      CAPTURE(S);
      const double closed =
          2.0 * (n - 1) * (alpha + std::max(S / (m * n) / B_out, (m - 1) * S / (m * n) / B_in));
      const double t = run(machine, policy::ChannelRingsCollective(), CollectiveKind::kAllReduce, n, S);
      CHECK(t == test::approx(closed).epsilon(0.01));
      const double rs = run(machine, policy::ChannelRingsCollective(), CollectiveKind::kReduceScatter, n, S);
      CHECK(rs == test::approx(closed / 2).epsilon(0.01));
      // The single ring crosses each boundary on one unit's rail: m times the network time.
      if (S > 1e8)
        CHECK(run(machine, policy::RingCollective(), CollectiveKind::kAllReduce, n, S) >
              0.9 * m * (t - 2.0 * (n - 1) * alpha));
    }
  }
}

TEST_CASE("hierarchical all-to-all: one phase inside the server, one across, each at its own bandwidth") {
  const uint32_t d = 4, m = 4, n = d * m;
  const double S = 256.0 * 1024 * 1024, alpha = 2e-6, B_in = 400e9, B_out = 50e9;
  const auto machine = servers(d, m);
  // Phase 1: each unit sends (m-1) messages of d S/n over its 400 GB/s link; phase 2: (d-1) messages of
  // m S/n over its rail link.
  const double closed = alpha + (m - 1) * d * S / n / B_in + alpha + (d - 1) * m * S / n / B_out;
  const double t = run(machine, policy::HierarchicalCollective(), CollectiveKind::kAllToAll, n, S);
  CHECK(t == test::approx(closed).epsilon(0.01));
}

TEST_CASE(
    "double binary tree: every rank inner in at most one tree, between 2S/B and (k + 2H)(alpha + 2S/(kB))") {
  for (uint32_t n : {8u, 16u, 64u}) {
    const auto parents = policy::binary_tree_parents(n);
    std::vector<int> children(n, 0), mirrored_children(n, 0);
    for (uint32_t r = 0; r < n; ++r) {
      if (parents[r] >= 0) ++children[parents[r]];
      if (parents[n - 1 - r] >= 0) ++mirrored_children[n - 1 - parents[n - 1 - r]];
    }
    for (uint32_t r = 0; r < n; ++r) {
      CAPTURE(r);
      CHECK(children[r] <= 2);
      CHECK((children[r] == 0 || mirrored_children[r] == 0));
    }
  }
  const uint32_t n = 16;
  const double S = 1024.0 * 1024 * 1024, alpha = 2e-6, B = 100e9;
  const auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                                   test::link_model("100GB/s", "1us"));
  policy::CollectiveOptions options;
  const double k = options.chunks_for(S / 2), H = std::log2(n);
  const double t =
      run(machine, policy::DoubleBinaryTreeCollective(options), CollectiveKind::kAllReduce, n, S);
  // An inner rank moves 2S each way in all (bandwidth bound); a pipeline whose every step carried the
  // steady state's 2S/k would take the step bound. Fill and drain steps carry less.
  CHECK(t > 2 * S / B);
  CHECK(t < (k + 2 * H) * (alpha + 2 * S / k / B));
  CHECK(t < 1.1 * 2 * S / B);  // 64 chunks: within 10% of the bandwidth bound
}
