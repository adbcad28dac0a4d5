// Collapsed fidelity's bottleneck-link costs: sampled copies weigh on shared links only, closed forms.
#include <doctest/doctest.h>

#include <algorithm>

#include "engine/collapsed/analytic_network.hpp"
#include "support/approx.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using engine::AnalyticNetwork;
using zs::test::approx;

namespace {
/// Four units on one switch, 100 GB/s links without latency.
struct StarNetwork {
  topology::Machine machine =
      test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"), test::link_model("100GB/s", "0s"));
  topology::Router router{machine};
  AnalyticNetwork network{machine, router};
  topology::NodeId unit(int i) const { return machine.topology.units()[i]; }
  /// The busiest direction's load over its bandwidth, s.
  static double busiest(const std::vector<std::pair<uint32_t, double>>& bytes) {
    double most = 0;
    for (const auto& [d, b] : bytes) most = std::max(most, b / 100e9);
    return most;
  }
};
}  // namespace

TEST_CASE("a sampled copy's own links carry its bytes once, not its weight") {
  StarNetwork star;
  // The own transfer 0 -> 1 and one sampled copy 2 -> 3 standing for 10: the copy shares no link with the
  // own transfer, so each of its links carries 1 GB, not 10 GB, and the step drains in 1 GB / 100 GB/s.
  std::vector<std::pair<uint32_t, double>> bytes;
  const auto cost = star.network.step({{star.unit(0), star.unit(1), 1e9}},
                                      {{star.unit(2), star.unit(3), 1e9}}, 10.0, &bytes);
  CHECK(cost.drain == approx(0.01));
  REQUIRE(bytes.size() == 4);
  for (const auto& entry : bytes) {
    const uint32_t direction = entry.first;  // clang 14 cannot capture a structured binding
    CAPTURE(direction);
    CHECK(entry.second == approx(1e9));
  }
  // No direction carries more than the step's time lets through: utilization stays at most 100%.
  CHECK(StarNetwork::busiest(bytes) <= cost.total() * (1 + 1e-12));
}

TEST_CASE("where a sampled copy shares the own transfers' links, it weighs as the copies it stands for") {
  StarNetwork star;
  // The copy 2 -> 1 (weight 3) shares unit 1's downlink with the own 0 -> 1: 1 + 3 GB through it.
  std::vector<std::pair<uint32_t, double>> bytes;
  const auto cost = star.network.step({{star.unit(0), star.unit(1), 1e9}},
                                      {{star.unit(2), star.unit(1), 1e9}}, 3.0, &bytes);
  CHECK(cost.drain == approx(0.04));
  CHECK(StarNetwork::busiest(bytes) == approx(0.04));
}

TEST_CASE("a copy whose own links are busier than the own transfers' holds the step up") {
  StarNetwork star;
  // Two transfers of one copy leave unit 2 (2 GB on its uplink); the own transfer crosses 1 GB links.
  std::vector<std::pair<uint32_t, double>> bytes;
  const auto cost =
      star.network.step({{star.unit(0), star.unit(1), 1e9}},
                        {{star.unit(2), star.unit(3), 1e9}, {star.unit(2), star.unit(1), 0.0}}, 1.0, &bytes);
  CHECK(cost.drain == approx(0.01));
  const auto slower =
      star.network.step({{star.unit(0), star.unit(1), 1e9}},
                        {{star.unit(2), star.unit(3), 1e9}, {star.unit(2), star.unit(3), 1e9}}, 1.0, &bytes);
  CHECK(slower.drain == approx(0.02));
}

TEST_CASE(
    "a step pays its slowest route's latency, at least the mean step latency of its transfers not "
    "pipelined") {
  // Four units on one switch: units 0 and 1 on NVLink-like links (3.4 us per library step), 2 and 3 on
  // network-like links (14 us); every link 1 us. A collective library pipelines its steps along the
  // ring, so a chunk pays each hop's step latency once: per step, the mean over the step's transfers.
  topology::Machine m;
  m.unit_models.push_back(test::unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(test::link_model("100GB/s", "1us", "3.4us"));
  m.link_models.push_back(test::link_model("100GB/s", "1us", "14us"));
  const auto hub = m.topology.add_switch("hub");
  std::vector<topology::NodeId> u;
  for (int i = 0; i < 4; ++i) {
    u.push_back(m.topology.add_unit("u" + std::to_string(i), 0));
    m.topology.add_link(u.back(), hub, i < 2 ? 0 : 1);
  }
  m.step_latency = true;
  topology::Router router{m};
  AnalyticNetwork network{m, router};
  const auto mixed = network.step({{u[0], u[1], 1.0}, {u[2], u[3], 1.0}}, {}, 0.0);
  CHECK(mixed.latency == approx((3.4e-6 + 14e-6) / 2).epsilon(1e-9));
  const auto alone = network.step({{u[2], u[3], 1.0}}, {}, 0.0);
  CHECK(alone.latency == approx(14e-6).epsilon(1e-9));
  // A pipelined chunk (one behind the first) pays its route's 2 us only: the mean is over the others.
  const auto behind = network.step({{u[0], u[1], 1.0, true}, {u[2], u[3], 1.0}}, {}, 0.0);
  CHECK(behind.latency == approx(14e-6).epsilon(1e-9));
  std::vector<AnalyticNetwork::StepCost> per_own;
  const auto steady = network.step({{u[0], u[1], 1.0, true}, {u[2], u[3], 1.0, true}}, {}, 0.0, nullptr, 1.0,
                                   nullptr, &per_own);
  CHECK(steady.latency == approx(2e-6).epsilon(1e-9));
  REQUIRE(per_own.size() == 2);
  CHECK(per_own[1].latency == approx(2e-6).epsilon(1e-9));
  // Off: the slowest route's latency, two links of 1 us.
  m.step_latency = false;
  topology::Router plain_router{m};
  AnalyticNetwork plain{m, plain_router};
  CHECK(plain.step({{u[0], u[1], 1.0}, {u[2], u[3], 1.0}}, {}, 0.0).latency == approx(2e-6).epsilon(1e-9));
}
