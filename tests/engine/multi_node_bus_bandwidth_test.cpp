// Multi-server machines (2 x 8 H100, 4 x 8 B200) against nccl-tests' bus bandwidth, and auto's choice there.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/file_source.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/auto_collective.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/protocol_choice.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/collective/tree_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/run_cli.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

topology::Machine load(const std::string& file) {
  core::DiskFileSource files;
  return scenario::ScenarioLoader(files).load_machine(test::source_file(file));
}

topology::Machine two_servers() {
  return load("topologies/hgx-h100-rails-16.machine.json");
}

/// nccl-tests' bus bandwidth of one all-reduce of `bytes` over every unit: S / t x 2(n-1)/n, B/s.
double bus_bandwidth(const topology::Machine& machine, const policy::CollectivePolicy& policy, double bytes,
                     engine::Fidelity fidelity = engine::Fidelity::kExact) {
  const auto n = static_cast<uint32_t>(machine.topology.units().size());
  const auto t = test::one_collective(CollectiveKind::kAllReduce, n, bytes);
  const double seconds = engine::simulate(machine, t, policy::LinearPlacement(), policy, {}, fidelity)
                             .replay.iteration_time.value();
  return bytes / seconds * 2.0 * (n - 1) / n;
}

}  // namespace

TEST_CASE("2 x 8 H100 over 8 HDR-class rails: the hierarchical all-reduce within 10% of 339 GB/s at 8 GiB") {
  const auto machine = two_servers();
  const double large = bus_bandwidth(machine, policy::HierarchicalCollective(), 8 * kGiB);
  CHECK(large == test::approx(339e9).epsilon(0.10));
  // A ring, however split, puts 2(n-1)/n S through the 8 NICs of a server boundary: at most 8 x 25 GB/s
  // of bus bandwidth (the channel rings reach 0.923 of it). Only a schedule that reduces inside the
  // server first and overlaps the NVLink and network phases reaches the measured figure; the single ring
  // in communicator order crosses each boundary on one NIC.
  CHECK(bus_bandwidth(machine, policy::ChannelRingsCollective(), 8 * kGiB) ==
        test::approx(8 * 25e9 * 0.923).epsilon(0.02));
  CHECK(bus_bandwidth(machine, policy::RingCollective(), 8 * kGiB) < 25e9);
  // nccl-tests gives 298 GB/s at 1 GiB: t = 0.94 ms + S / 346 GB/s over the two points. The model has no
  // such fixed cost (its latencies are microseconds) and stays near its asymptote, 10.6% above the
  // measurement; the gap is stated in docs/calibration.md. Only the direction is checked here.
  CHECK(bus_bandwidth(machine, policy::HierarchicalCollective(), 1 * kGiB) < large);
  // Collapsed fidelity costs the pipeline in waves of whole phases: within 5% of the exact replay.
  for (double bytes : {1 * kGiB, 8 * kGiB}) {
    CAPTURE(bytes);
    CHECK(bus_bandwidth(machine, policy::HierarchicalCollective(), bytes, engine::Fidelity::kCollapsed) ==
          test::approx(bus_bandwidth(machine, policy::HierarchicalCollective(), bytes)).epsilon(0.05));
  }
}

TEST_CASE(
    "2 x 8 H100 with NCCL's step latencies: a small ring pays them per hop, a pipeline once per algorithm "
    "step") {
  auto machine = two_servers();
  machine.step_latency = true;  // nvlink4 3.4 us, ib-hdr 14 us per step (NCCL's latency model)
  // One ring in communicator order: each of its 2(n-1) = 30 steps has 14 transfers inside a server and 2
  // across, so a step's latency is the mean (14 x 3.4 + 2 x 14) / 16 = 4.725 us, above the slowest route's
  // 2.2 us, and the ring's base latency (8.4 us) comes before the first step; 1 KiB moves 64 B per step.
  // NCCL's own count for this ring (NCCL 2.19): 8.4 + 26 x 3.4 + 4 x 14 = 152.8 us.
  const auto n = static_cast<uint32_t>(machine.topology.units().size());
  const double small = 1024;
  for (auto fidelity : {engine::Fidelity::kExact, engine::Fidelity::kCollapsed}) {
    CAPTURE(int(fidelity));
    const double t = engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, n, small),
                                      policy::LinearPlacement(), policy::RingCollective(), {}, fidelity)
                         .replay.iteration_time.value();
    CHECK(t == test::approx(30 * (14 * 3.4e-6 + 2 * 14e-6) / 16 + 8.4e-6).epsilon(0.005));
  }
  // The hierarchical all-reduce of 1 GiB (64 chunks) pays the step latencies on its first chunk only, the
  // pipeline's fill of 16 steps, about 0.1 ms in 6 ms: collapsed fidelity is slower by under 1.5%; the
  // exact replay, which holds the first chunk for its steps' latency before SimGrid shares the links,
  // moves by under 1% either way (measured +0.8%: the phases behind the fill share the links a little
  // differently). Given to SimGrid as a latency instead, it weighed the first chunk's share of its links
  // and cost 3.5% here. nccl-tests' 298 GB/s keeps its gap (about 0.94 ms of fixed cost that nothing here
  // models).
  for (auto fidelity : {engine::Fidelity::kCollapsed, engine::Fidelity::kExact}) {
    CAPTURE(int(fidelity));
    machine.step_latency = true;
    const double on = bus_bandwidth(machine, policy::HierarchicalCollective(), 1 * kGiB, fidelity);
    machine.step_latency = false;
    const double off = bus_bandwidth(machine, policy::HierarchicalCollective(), 1 * kGiB, fidelity);
    if (fidelity == engine::Fidelity::kCollapsed) {
      CHECK(on < off);
      CHECK(on > 0.985 * off);
    } else {
      CHECK(on == test::approx(off).epsilon(0.01));
    }
  }
}

TEST_CASE(
    "2 x 8 H100, NCCL's protocols: auto runs each all-reduce as fast as the best of LL, LL128, Simple") {
  // nvlink4: 0.6 / 1.9 / 3.4 us per step under LL / LL128 / Simple, ib-hdr 2.7 / 4.0 / 14 us (NCCL 2.19).
  // With the protocol chosen per collective, a small all-reduce no longer pays Simple's step latency: the
  // channel rings' 1 KiB all-reduce runs under LL: LL's base latency, 6.6 us (LL128's 14 us), then 30 steps
  // of the slowest route's 2.2 us (above LL's mean step latency, (14 x 0.6 + 2 x 2.7) / 16 = 0.8625 us),
  // where Simple pays 8.4 us and 4.725 us a step; 1 GiB stays Simple.
  auto machine = two_servers();
  machine.step_latency = true;
  const auto n = static_cast<uint32_t>(machine.topology.units().size());
  auto seconds = [&](policy::ProtocolSetting setting, double bytes, engine::Fidelity fidelity) {
    const policy::ProtocolChoice policy(std::make_unique<policy::ChannelRingsCollective>(), setting);
    return engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, n, bytes),
                            policy::LinearPlacement(), policy, {}, fidelity)
        .replay.iteration_time.value();
  };
  for (auto fidelity : {engine::Fidelity::kExact, engine::Fidelity::kCollapsed}) {
    CAPTURE(int(fidelity));
    CHECK(seconds(policy::ProtocolSetting::kAuto, 1024, fidelity) ==
          test::approx(6.6e-6 + 30 * 2.2e-6).epsilon(0.005));
    CHECK(seconds(policy::ProtocolSetting::kSimple, 1024, fidelity) >
          2 * seconds(policy::ProtocolSetting::kAuto, 1024, fidelity));
    for (double bytes : {1024.0, 1024.0 * 1024, 64.0 * 1024 * 1024, kGiB}) {
      CAPTURE(bytes);
      double best = 1e30;
      for (auto setting :
           {policy::ProtocolSetting::kSimple, policy::ProtocolSetting::kLl128, policy::ProtocolSetting::kLl})
        best = std::min(best, seconds(setting, bytes, fidelity));
      CHECK(seconds(policy::ProtocolSetting::kAuto, bytes, fidelity) <= best * 1.005);
    }
    CHECK(seconds(policy::ProtocolSetting::kAuto, kGiB, fidelity) ==
          seconds(policy::ProtocolSetting::kSimple, kGiB, fidelity));
  }
}

TEST_CASE("4 x 8 B200 over 8 NDR rails: channel rings within 10% of nccl-tests' 377 GB/s at 16 GiB") {
  // The figure is what NCCL's rings give with 8 x 400 Gb/s NICs per server (0.94 of 400 GB/s); the NICs
  // are an assumption of the shipped machine (hgx-b200-rails-32.json), at ib-ndr's efficiency 0.96 (48 GB/s
  // per NIC, NCCL's team on nccl-tests). The pipelined hierarchical schedule would reach a third more:
  // 2(n-1)/n x 8 x 48 GB/s x 4/3 (the network carries 2(d-1)/d S/8 per NIC instead of 2(n-1)/n S/8) =
  // 496 GB/s; the 16 GiB buffer's pipeline fill leaves a few percent of that.
  const auto machine = load("topologies/hgx-b200-rails-32.machine.json");
  CHECK(bus_bandwidth(machine, policy::ChannelRingsCollective(), 16 * kGiB) ==
        test::approx(377e9).epsilon(0.10));
  CHECK(bus_bandwidth(machine, policy::HierarchicalCollective(), 16 * kGiB) ==
        test::approx(496e9).epsilon(0.05));
}

TEST_CASE("auto with NCCL's protocols is never more than 5% slower than the best algorithm and protocol") {
  // 2 x 8 H100 with the step latency on: every fixed algorithm under each forced protocol against `auto`
  // choosing both (the algorithm from its estimates under each protocol, the protocol for the schedule).
  auto machine = load("topologies/hgx-h100-rails-16.machine.json");
  machine.step_latency = true;
  const auto n = static_cast<uint32_t>(machine.topology.units().size());
  const auto protocols = {policy::ProtocolSetting::kSimple, policy::ProtocolSetting::kLl128,
                          policy::ProtocolSetting::kLl};
  for (double bytes : {4.0 * 1024, 256.0 * 1024, 4.0 * 1024 * 1024, 64.0 * 1024 * 1024})
    for (auto kind :
         {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
      CAPTURE(bytes);
      CAPTURE(int(kind));
      auto seconds = [&](std::unique_ptr<policy::CollectivePolicy> inner, policy::ProtocolSetting setting) {
        const policy::ProtocolChoice p(std::move(inner), setting);
        return engine::simulate(machine, test::one_collective(kind, n, bytes), policy::LinearPlacement(), p)
            .replay.iteration_time.value();
      };
      double best = 1e30;
      for (auto setting : protocols) {
        best = std::min({best, seconds(std::make_unique<policy::RingCollective>(), setting),
                         seconds(std::make_unique<policy::ChannelRingsCollective>(), setting),
                         seconds(std::make_unique<policy::RecursiveCollective>(), setting),
                         seconds(std::make_unique<policy::HierarchicalCollective>(), setting)});
        if (kind == CollectiveKind::kAllReduce)
          best = std::min(best, seconds(std::make_unique<policy::DoubleBinaryTreeCollective>(), setting));
      }
      policy::CollectiveOptions both;
      both.protocol = policy::ProtocolSetting::kAuto;
      CHECK(seconds(std::make_unique<policy::AutoCollective>(both), policy::ProtocolSetting::kAuto) <=
            1.05 * best);
    }
}

TEST_CASE("the double binary tree pays NCCL's tree row of step latencies and its tree's base latency") {
  // 8 H100 on NVSwitch, 1 KiB (one chunk per tree, H = 3 levels up and down): under Simple each of the 2H
  // steps takes the tree's 28 us (the ring's is 3.4 us) and the tree has no base latency; under LL128 the
  // tree's 1.25 us step is below the route's 1.3 us of link and switch latency, plus 14 us of base
  // latency; under LL 6.8 us of base latency, then 2H routes of 1.3 us.
  auto machine = load("topologies/hgx-h100-8.machine.json");
  machine.step_latency = true;
  const auto n = static_cast<uint32_t>(machine.topology.units().size());
  auto seconds = [&](policy::ProtocolSetting setting, engine::Fidelity fidelity) {
    const policy::ProtocolChoice p(std::make_unique<policy::DoubleBinaryTreeCollective>(), setting);
    return engine::simulate(machine, test::one_collective(CollectiveKind::kAllReduce, n, 1024),
                            policy::LinearPlacement(), p, {}, fidelity)
        .replay.iteration_time.value();
  };
  for (auto fidelity : {engine::Fidelity::kExact, engine::Fidelity::kCollapsed}) {
    CAPTURE(int(fidelity));
    CHECK(seconds(policy::ProtocolSetting::kSimple, fidelity) == test::approx(6 * 28e-6).epsilon(0.005));
    CHECK(seconds(policy::ProtocolSetting::kLl128, fidelity) ==
          test::approx(14e-6 + 6 * 1.3e-6).epsilon(0.005));
    CHECK(seconds(policy::ProtocolSetting::kLl, fidelity) ==
          test::approx(6.8e-6 + 6 * 1.3e-6).epsilon(0.005));
  }
}
