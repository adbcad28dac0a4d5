// The worked example of docs/extending.md: a collective policy added to a catalog at run time, named by a
// scenario and simulated, against its closed form.
#include <doctest/doctest.h>

#include <memory>
#include <stdexcept>

#include "core/file_source.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/schedule_builder.hpp"
#include "policy/placement/linear_placement.hpp"
#include "scenario/catalog.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"
#include "support/collective_trace.hpp"
#include "support/run_cli.hpp"
#include "support/scenario_files.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

/// Star all-reduce: every member sends its buffer to member 0, which sends the sum back to each.
/// On one switch of links of bandwidth B and latency alpha/2: 2 alpha + 2 (n-1) S / B.
class StarCollective final : public policy::CollectivePolicy {
 public:
  std::string_view name() const override { return "star"; }
  policy::CollectiveSchedule schedule(const policy::CollectiveRequest& request) const override {
    if (request.kind != workload::CollectiveKind::kAllReduce)
      throw std::invalid_argument("the star policy implements all-reduce only");
    const auto n = static_cast<uint32_t>(request.member_units.size());
    policy::CollectiveSchedule s;
    s.algorithm = "star";
    if (n <= 1) return s;
    policy::ScheduleBuilder b(s, n);
    for (uint32_t m = 1; m < n; ++m) b.send(m, 0, request.bytes.value());
    b.end_step();
    for (uint32_t m = 1; m < n; ++m) b.send(0, m, request.bytes.value());
    b.end_step();
    return s;
  }
};

/// The built-ins plus "star".
scenario::Catalog catalog_with_star() {
  scenario::Catalog catalog;
  catalog.policies.collective.add("star", "every member to member 0 and back (a worked example)",
                                  [](const policy::CollectiveOptions&, const policy::CollectiveRegistry&) {
                                    return std::make_unique<StarCollective>();
                                  });
  return catalog;
}

}  // namespace

TEST_CASE("a collective policy added to a catalog is known to scenarios read against that catalog only") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["policies"]["collective"] = "star";
  const std::string path = files.write(dir);
  core::DiskFileSource disk;
  const scenario::Catalog catalog = catalog_with_star();
  CHECK(scenario::ScenarioLoader(disk, catalog).load(path).collective_policy == "star");
  CHECK_THROWS_WITH_AS(
      scenario::ScenarioLoader(disk).load(path),
      (path + ": /policies/collective: unknown collective policy \"star\" (known: ring, recursive, "
              "tree, double-binary-tree, in-network, rings, hierarchical, pairwise, auto)")
          .c_str(),
      core::InputError);
  CHECK_THROWS_AS(scenario::Catalog().policies.collective.add("ring", "a second ring", nullptr),
                  std::invalid_argument);
}

TEST_CASE("the added star all-reduce takes 2 alpha + 2 (n-1) S / B within 1%") {
  const scenario::Catalog catalog = catalog_with_star();
  const auto star = policy::make_collective_policy(catalog.policies.collective, "star");
  for (uint32_t n : {2u, 8u}) {
    CAPTURE(n);
    const double bytes = 1 << 30;  // B
    const auto machine = test::single_switch_machine(int(n), test::unit_model("1PFLOPS", 1, "0s"),
                                                     test::link_model("100GB/s", "1us"));
    const double simulated =
        engine::simulate(machine, test::one_collective(workload::CollectiveKind::kAllReduce, n, bytes),
                         policy::LinearPlacement(), *star)
            .replay.iteration_time.value();
    const double alpha = 2e-6, bandwidth = 100e9;  // s unit to unit, B/s
    CHECK(simulated == test::approx(2 * alpha + 2 * (n - 1) * bytes / bandwidth).epsilon(0.01));
  }
}
