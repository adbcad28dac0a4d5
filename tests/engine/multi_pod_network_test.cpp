// Ring all-reduces on two pods joined by a data-centre network against their closed forms, at exact and
// collapsed fidelity: inside one pod the DCN carries nothing, across pods its NIC paces the ring.
#include <doctest/doctest.h>

#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/test_machines.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {
constexpr double kPodLink = 100e9, kPodAlpha = 2e-6;  // unit - switch - unit: two 1 us links
constexpr double kNic = 25e9, kDcnAlpha = 4 * 5e-6;   // unit - pod DCN - core - pod DCN - unit

/// Two pods of 8 units on one switch each, joined by a DCN of 50 GB/s NICs each shared by 2 units.
topology::Machine two_pods() {
  topology::ModelSet models;
  models.units.emplace("gpu", test::unit_model("1PFLOPS", 1, "0s"));
  models.links.emplace("nvlink", test::link_model("100GB/s", "1us"));
  models.links.emplace("nic", test::link_model("50GB/s", "5us"));
  nlohmann::json params = {
      {"kind", "topology"},
      {"name", "two-pods"},
      {"generator", "pods"},
      {"pods", 2},
      {"pod",
       {{"generator", "single-switch"}, {"units", 8}, {"unit_model", "gpu"}, {"link_model", "nvlink"}}},
      {"dcn", {{"nic_link", "nic"}, {"units_per_nic", 2}}}};
  core::JsonObject o(params, "two-pods.json", "");
  return topology::build_machine(o, models);
}

double all_reduce(uint32_t ranks, double bytes, core::Fidelity fidelity) {
  return engine::simulate(two_pods(), test::one_collective(CollectiveKind::kAllReduce, ranks, bytes),
                          policy::LinearPlacement(), policy::RingCollective(), {}, fidelity)
      .replay.iteration_time.value();
}
}  // namespace

TEST_CASE("multi-pod: a ring inside one pod runs at its switch's speed, a ring over both at the NIC's") {
  const double S = 256.0 * 1024 * 1024;
  for (auto fidelity : {core::Fidelity::kExact, core::Fidelity::kCollapsed}) {
    CAPTURE(core::to_string(fidelity));
    // Ranks 0-7 on pod 0: 2(n-1) steps of alpha + S/n over the pod's switch, as on a lone switch.
    const double inside = 2.0 * 7 * (kPodAlpha + S / 8 / kPodLink);
    CHECK(all_reduce(8, S, fidelity) == zs::test::approx(inside).epsilon(0.01));
    // Ranks 0-15 over both pods: every step waits for the two crossings, each on its unit's NIC share.
    const double across = 2.0 * 15 * (kDcnAlpha + S / 16 / kNic);
    CHECK(all_reduce(16, S, fidelity) == zs::test::approx(across).epsilon(0.02));
  }
}
