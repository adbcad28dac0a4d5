// The protocol decorator: NCCL's LL, LL128 and Simple, each protocol's estimate against its closed form,
// and the pick by least estimate.
#include <doctest/doctest.h>

#include "policy/collective/protocol_choice.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/policy_catalog.hpp"
#include "support/test_machines.hpp"

using namespace zs;
using hw::CollectiveProtocol;
using workload::CollectiveKind;

namespace {

constexpr uint32_t kMembers = 8;
constexpr double kBandwidth = 100e9;    ///< B/s per link direction
constexpr double kRouteLatency = 1e-6;  ///< two 0.5 us links through a switch without a model, s

/// Eight units on one switch, links of 100 GB/s and 0.5 us whose step latency is 10 us under Simple,
/// 4 us under LL128 and 2 us under LL.
const topology::Machine& machine() {
  static const topology::Machine m = [] {
    auto machine = test::single_switch_machine(kMembers, test::unit_model("1PFLOPS", 1, "0s"),
                                               test::link_model("100GB/s", "0.5us", "10us", "4us", "2us"));
    machine.step_latency = true;
    return machine;
  }();
  return m;
}

policy::CollectiveRequest request(CollectiveKind kind, double bytes) {
  policy::CollectiveRequest r{kind, core::Bytes(bytes), {}, &machine()};
  for (uint32_t i = 0; i < kMembers; ++i) r.member_units.push_back(machine().topology.units()[i]);
  return r;
}

/// The ring all-reduce under `protocol`: 2(n-1) steps, each the larger of the route latency and the
/// protocol's step latency, plus S/n bytes over the protocol's fraction of the bandwidth.
double ring_closed_form(double bytes, double step_latency, double fraction) {
  return 2.0 * (kMembers - 1) *
         (std::max(kRouteLatency, step_latency) + bytes / kMembers / (fraction * kBandwidth));
}

std::unique_ptr<policy::CollectivePolicy> ring(policy::ProtocolSetting setting) {
  return std::make_unique<policy::ProtocolChoice>(std::make_unique<policy::RingCollective>(), setting);
}

}  // namespace

TEST_CASE("protocol estimates: each protocol's ring all-reduce closed form") {
  for (double bytes : {1024.0, 1e6, 1e9}) {
    CAPTURE(bytes);
    const auto steps = policy::RingCollective().steps(request(CollectiveKind::kAllReduce, bytes)).second;
    const auto estimates =
        policy::ProtocolChoice::estimates(request(CollectiveKind::kAllReduce, bytes), steps);
    CHECK(estimates[size_t(CollectiveProtocol::kSimple)] ==
          doctest::Approx(ring_closed_form(bytes, 10e-6, 1.0)).epsilon(1e-9));
    CHECK(estimates[size_t(CollectiveProtocol::kLl128)] ==
          doctest::Approx(ring_closed_form(bytes, 4e-6, 0.92)).epsilon(1e-9));
    CHECK(estimates[size_t(CollectiveProtocol::kLl)] ==
          doctest::Approx(ring_closed_form(bytes, 2e-6, 0.25)).epsilon(1e-9));
  }
}

TEST_CASE("protocol auto: LL for small buffers, LL128 in between, Simple for large ones") {
  // Crossovers of the closed forms with each protocol's ring base latency (LL 6.6, LL128 14, Simple
  // 8.4 us) added: LL and LL128 are equal where 6.6 us + 14 (2 us + S/(n 0.25 B)) = 14 us + 14 (4 us +
  // S/(n 0.92 B)), S = 694 kB; LL128 and Simple where 14 us + 14 (4 us + S/(n 0.92 B)) = 8.4 us +
  // 14 (10 us + S/(n B)), S = 51.5 MB. Without the base latencies they would be 549 kB and 55.2 MB.
  const auto pick = [](double bytes) {
    return ring(policy::ProtocolSetting::kAuto)
        ->schedule(request(CollectiveKind::kAllReduce, bytes))
        .algorithm;
  };
  CHECK(pick(64e3) == "ring/ll");
  CHECK(pick(650e3) == "ring/ll");
  CHECK(pick(750e3) == "ring/ll128");
  CHECK(pick(50e6) == "ring/ll128");
  CHECK(pick(53e6) == "ring");
  CHECK(pick(1e9) == "ring");
}

TEST_CASE("a protocol marks every transfer and grows its bytes by its bandwidth fraction") {
  const double bytes = 1e6;
  const auto plain = policy::RingCollective().schedule(request(CollectiveKind::kAllReduce, bytes));
  struct Case {
    policy::ProtocolSetting setting;
    CollectiveProtocol protocol;
    double fraction;
    std::string suffix;
  };
  for (const Case& c : {Case{policy::ProtocolSetting::kLl, CollectiveProtocol::kLl, 0.25, "/ll"},
                        Case{policy::ProtocolSetting::kLl128, CollectiveProtocol::kLl128, 0.92, "/ll128"},
                        Case{policy::ProtocolSetting::kSimple, CollectiveProtocol::kSimple, 1.0, ""}}) {
    CAPTURE(c.suffix);
    const auto setting = c.setting;
    const auto protocol = c.protocol;
    const double fraction = c.fraction;
    const std::string& suffix = c.suffix;
    const auto policy = ring(setting);
    const auto r = request(CollectiveKind::kAllReduce, bytes);
    const auto s = policy->schedule(r);
    CHECK(s.algorithm == std::string("ring") + suffix);
    REQUIRE(s.transfers.size() == plain.transfers.size());
    for (size_t i = 0; i < s.transfers.size(); ++i) {
      CHECK(s.transfers[i].protocol == protocol);
      CHECK(s.transfers[i].bytes.value() == doctest::Approx(plain.transfers[i].bytes.value() / fraction));
    }
    // The stepwise form (collapsed fidelity) runs the same protocol.
    const auto stepwise = policy->steps(r);
    CHECK(stepwise.first == s.algorithm);
    for (const auto& step : stepwise.second)
      for (const auto& t : step.transfers) CHECK(t.protocol == protocol);
  }
}

TEST_CASE("all-to-all stays Simple: NCCL runs it as point-to-point sends, outside its tuner") {
  const auto r = request(CollectiveKind::kAllToAll, 1e3);
  const auto plain = policy::RingCollective().schedule(r);
  const auto s = ring(policy::ProtocolSetting::kLl)->schedule(r);
  CHECK(s.algorithm == plain.algorithm);
  REQUIRE(s.transfers.size() == plain.transfers.size());
  for (size_t i = 0; i < s.transfers.size(); ++i) {
    CHECK(s.transfers[i].protocol == CollectiveProtocol::kSimple);
    CHECK(s.transfers[i].bytes == plain.transfers[i].bytes);
  }
}

TEST_CASE("the catalog wraps a policy only when a protocol other than Simple is asked for") {
  policy::CollectiveOptions options;
  CHECK(policy::make_collective_policy("ring", options)
            ->schedule(request(CollectiveKind::kAllReduce, 1e3))
            .algorithm == "ring");
  options.protocol = policy::ProtocolSetting::kAuto;
  CHECK(policy::make_collective_policy("ring", options)
            ->schedule(request(CollectiveKind::kAllReduce, 1e3))
            .algorithm == "ring/ll");
  CHECK(policy::protocol_setting("ll128") == policy::ProtocolSetting::kLl128);
  CHECK_THROWS_AS(policy::protocol_setting("ll64"), std::invalid_argument);
}
