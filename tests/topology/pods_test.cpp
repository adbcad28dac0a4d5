// The pods generator against closed forms: counts and names, routes that stay in their pod, the DCN's
// bisection, and bad pods.
#include <doctest/doctest.h>

#include <cstdlib>

#include "support/approx.hpp"
#include "support/test_machines.hpp"
#include "topology/hop_distances.hpp"
#include "topology/machine_builder.hpp"
#include "topology/router.hpp"
#include "topology/topology_metrics.hpp"

using namespace zs;
using nlohmann::json;

namespace {
constexpr double kNic = 50e9;  // "nic": 50 GB/s per direction

topology::Machine build(json params) {
  topology::ModelSet models;
  models.units.emplace("tpu", test::unit_model("1PFLOPS", 0.5, "0s"));
  models.links.emplace("ici", test::link_model("100GB/s", "1us"));
  models.links.emplace("nic", test::link_model("50GB/s", "5us"));
  params["kind"] = "topology";
  params["name"] = "p";
  params["generator"] = "pods";
  core::JsonObject o(params, "p.json", "");
  return topology::build_machine(o, models);
}

/// `pods` tori of dims, on NICs shared by `units_per_nic` units.
json tori(int pods, json dims, int units_per_nic = 1, double oversubscription = 1.0) {
  return {{"pods", pods},
          {"pod",
           {{"generator", "torus"}, {"dims", std::move(dims)}, {"unit_model", "tpu"}, {"link_model", "ici"}}},
          {"dcn",
           {{"nic_link", "nic"}, {"units_per_nic", units_per_nic}, {"oversubscription", oversubscription}}}};
}

std::string build_error(json params) {
  try {
    build(std::move(params));
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

/// Links between units x and y of one wrapped torus of dims (first dimension fastest).
uint32_t torus_hops(uint32_t x, uint32_t y, const std::vector<uint32_t>& dims) {
  uint32_t hops = 0;
  for (uint32_t d : dims) {
    const uint32_t delta = uint32_t(std::abs(int(x % d) - int(y % d)));
    hops += std::min(delta, d - delta);
    x /= d;
    y /= d;
  }
  return hops;
}
}  // namespace

TEST_CASE("pods: counts, names and every node of a pod tagged with it") {
  auto m = build(tori(3, {4, 4}, 2));
  const auto& t = m.topology;
  CHECK(m.unit_count() == 3 * 16);
  CHECK(t.links().size() == 3 * (2 * 16) + 3 * 16 + 3);  // torus links, a NIC per unit, an uplink per pod
  CHECK(t.node(t.units()[16]).name == "pod1/unit0");
  for (uint64_t u = 0; u < m.unit_count(); ++u) CHECK(t.pod(t.units()[u]) == u / 16);
  uint32_t untagged = 0;
  for (topology::NodeId n = 0; n < t.nodes().size(); ++n)
    if (t.pod(n) == topology::kNoPod) {
      ++untagged;
      CHECK(t.node(n).kind == topology::NodeKind::kSwitch);
    }
  CHECK(untagged == 3 + 1);  // a DCN switch per pod and the core
  // A unit's share of its NIC: half of one, shared by two units.
  for (auto [next, link] : t.neighbours(t.units()[0]))
    if (t.pod(next) == topology::kNoPod) CHECK(m.link_bandwidth(link).value() == zs::test::approx(kNic / 2));
}

TEST_CASE("pods: routes inside a pod stay on its torus, routes between pods take the DCN") {
  const std::vector<uint32_t> dims{8, 4};  // a torus diameter of 6 links, more than the DCN's 4
  auto m = build(tori(2, {8, 4}));
  const auto& t = m.topology;
  topology::Router router(m);
  for (uint32_t x = 0; x < 32; ++x)
    for (uint32_t y = 0; y < 32; ++y) {
      auto route = router.route(t.units()[x], t.units()[y]);
      CHECK(route.size() == torus_hops(x, y, dims));
      for (auto l : route) CHECK(t.pod(t.link(l).a) == 0);
    }
  auto across = router.route(t.units()[3], t.units()[32 + 17]);
  REQUIRE(across.size() == 4);  // unit - pod0/dcn - dcn-core - pod1/dcn - unit
  CHECK(t.node(t.link(across[1]).b).name == "dcn-core");
  CHECK(topology::unit_diameter(t, 4096).hops == 6);
  // The same for the placement's hop counts (through switches only: a torus unit forwards nothing).
  auto hops = topology::hops_from(m, t.units()[0]);
  CHECK(hops[t.units()[1]] == 1);
  CHECK(hops[t.units()[2]] == topology::kUnreachable);  // not 2 through pod0/dcn
  CHECK(hops[t.units()[32 + 2]] == 4);
}

TEST_CASE("pods: fluid spreads from inside a pod load no DCN link, from another pod the uplinks") {
  auto m = build(tori(2, {4, 4}));
  const auto& t = m.topology;
  topology::Router router(m);
  double on_dcn = 0, total = 0;
  auto count = [&](topology::LinkId l, topology::NodeId, double bytes) {
    total += bytes;
    if (t.pod(t.link(l).a) == topology::kNoPod || t.pod(t.link(l).b) == topology::kNoPod) on_dcn += bytes;
  };
  router.spread({{t.units()[5], 1e6}, {t.units()[10], 1e6}}, {{t.units()[0], 1.0}}, count);
  CHECK(total > 0);
  CHECK(on_dcn == 0);
  total = 0;
  router.spread({{t.units()[16 + 5], 1e6}}, {{t.units()[0], 1.0}}, count);
  CHECK(on_dcn == zs::test::approx(4 * 1e6));  // NIC, uplink, downlink, NIC
  CHECK(total == zs::test::approx(4 * 1e6));
}

TEST_CASE("pods: the bisection of two pods is one pod's uplink: NICs x bandwidth / oversubscription") {
  for (double r : {1.0, 4.0}) {
    CAPTURE(r);
    auto m = build(tori(2, {4, 4, 2}, 4, r));
    CHECK(topology::half_split_bandwidth(m).value() == zs::test::approx(32 / 4 * kNic / r));
  }
}

TEST_CASE("pods: bad pods are input errors naming the key") {
  auto nested = tori(2, {4});
  nested["pod"] = tori(2, {4});
  nested["pod"]["generator"] = "pods";
  CHECK(build_error(nested) == "p.json: /pod/generator: a pod cannot itself be made of pods");
  auto unknown = tori(2, {4});
  unknown["pod"]["generator"] = "ring";
  CHECK(build_error(unknown).starts_with("p.json: /pod/generator: unknown generator \"ring\""));
  auto misspelt = tori(2, {4});
  misspelt["pod"]["wrap_around"] = false;
  CHECK(build_error(misspelt).starts_with("p.json: /pod/wrap_around: "));
  auto no_nic = tori(2, {4});
  no_nic["dcn"]["nic_link"] = "ib";
  CHECK(build_error(no_nic).starts_with("p.json: /dcn/nic_link: the link model \"ib\" is not bound"));
  CHECK(build_error(tori(65536, {64, 64, 8}))
            .starts_with("p.json: /pods: 65536 pods of 32768 nodes exceed the machine's limit"));
}
