// Plugins load into a catalog all or nothing, and each way of breaking the contract is one clear error.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "plugin/plugin_loader.hpp"
#include "policy/collective/route_measurements.hpp"
#include "support/temp_dir.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

std::string faulty(const std::string& fault) {
  return std::string(ZS_FAULTY_PLUGIN_DIR) + "/zs_faulty_plugin_" + fault + ".so";
}

std::string example(const std::string& name) {
  return std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_" + name + ".so";
}

/// The message of the core::InputError that loading `file` throws; "" when it loads.
std::string load_error(const std::string& file, policy::PolicyCatalog& catalog) {
  try {
    plugin::load_plugin(file, catalog);
  } catch (const core::InputError& e) {
    CHECK(e.file().find(".so") != std::string::npos);
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("the example plugins add their policies, tagged, once however often they are loaded") {
  policy::PolicyCatalog catalog;
  const size_t placements = catalog.placement.entries().size();
  const size_t collectives = catalog.collective.entries().size();
  plugin::load_plugin(example("placement"), catalog);
  plugin::load_plugin(example("collective"), catalog);
  plugin::load_plugin(example("placement"), catalog);  // again: a no-op
  plugin::load_plugin(example("recovery"), catalog);
  CHECK(catalog.placement.entries().size() == placements + 1);
  CHECK(catalog.collective.entries().size() == collectives + 1);
  CHECK(catalog.recovery.names() == "replace, shrink, wait-for-repair, shrink-first");
  REQUIRE(catalog.plugins.size() == 3);
  CHECK(catalog.plugins[0].name == "example-placement");
  CHECK(catalog.plugins[1].name == "example-collective");
  CHECK(catalog.plugins[0].file.front() == '/');
  const auto& entry = catalog.collective.at("direct-all-reduce");
  CHECK(contains(entry.description, "[plugin example-collective]"));
  CHECK(entry.make(policy::CollectiveOptions{}, catalog.collective)->name() == "direct-all-reduce");
  CHECK(catalog.placement.at("domain-packed").make(nullptr)->name() == "domain-packed");
}

TEST_CASE("each broken plugin is refused with one line naming it, and the catalog is left as it was") {
  test::TempDir dir;
  const std::string text_file = dir.write("not-a-library.so", "this is not an ELF file\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {faulty("no_entry_point"), "exports no zettasim_plugin entry point"},
      {faulty("other_version"), "built against zettasim 0.0.0-other (plugin ABI 4), this is zettasim"},
      {faulty("duplicate_name"), "adds collective policy \"ring\", which already exists"},
      {faulty("add_throws"), "failed to add its policies: deliberate failure while adding policies"},
      {faulty("adds_nothing"), "the plugin adds no policy"},
      {text_file, "cannot load the plugin"},
      {dir.file("missing.so"), "no such plugin file"},
  };
  for (const auto& c : cases) {
    const std::string& file = c.first;
    const std::string& expected = c.second;
    CAPTURE(file);
    policy::PolicyCatalog catalog;
    const size_t collectives = catalog.collective.entries().size();
    const std::string error = load_error(file, catalog);
    CHECK(contains(error, expected));
    CHECK(error.find('\n') == std::string::npos);
    CHECK(catalog.plugins.empty());
    CHECK(catalog.collective.entries().size() == collectives);
  }
}

TEST_CASE("what a plugin's policy throws is that plugin's input error, not a crash") {
  policy::PolicyCatalog catalog;
  plugin::load_plugin(faulty("policy_throws"), catalog);
  const auto collective =
      catalog.collective.at("throwing-collective").make(policy::CollectiveOptions{}, catalog.collective);
  try {
    (void)collective->schedule(policy::CollectiveRequest{});
    FAIL("schedule() should throw");
  } catch (const core::InputError& e) {
    CHECK(contains(e.file(), "zs_faulty_plugin_policy_throws.so"));
    CHECK(
        e.message() ==
        "collective policy \"throwing-collective\" of this plugin failed: deliberate failure in schedule()");
  }
  const auto& rule = catalog.checkpoint_rule.at("negative-interval").make;
  try {
    (void)rule(86400.0, 300.0);
    FAIL("a negative interval should be refused");
  } catch (const core::InputError& e) {
    CHECK(contains(e.message(), "gave an interval of -1.000000 s (expected a finite positive time)"));
  }
}

TEST_CASE("a plugin's recovery choice that is no action, or a shrink it cannot make, is its input error") {
  policy::PolicyCatalog catalog;
  plugin::load_plugin(faulty("policy_throws"), catalog);
  policy::RankLoss loss;
  loss.ranks = 1;
  const auto refusal = [&](const std::string& name) {
    try {
      (void)catalog.recovery.at(name).make()->choose(loss);
    } catch (const core::InputError& e) {
      CHECK(contains(e.file(), "zs_faulty_plugin_policy_throws.so"));
      return e.message();
    }
    return std::string();
  };
  CHECK(
      refusal("secret-shrink") ==
      "recovery policy \"secret-shrink\" of this plugin chose to shrink, but its may_shrink() says it never "
      "does");
  CHECK(refusal("no-action") ==
        "recovery policy \"no-action\" of this plugin chose recovery action 7, which "
        "is none of replace, shrink, wait for repair");
  loss.replicas_to_drop = 1;  // a shrink is possible here, so the honest part of the choice passes
  CHECK(catalog.recovery.at("secret-shrink").make()->choose(loss) == policy::RecoveryAction::kShrink);
}

TEST_CASE("a plugin's estimate that is not a time of at least zero is that plugin's input error") {
  policy::PolicyCatalog catalog;
  plugin::load_plugin(faulty("policy_throws"), catalog);
  const auto machine = test::single_switch_machine(4, test::unit_model("1PFLOPS", 1, "0s"),
                                                   test::link_model("100GB/s", "1us"));
  const policy::CollectiveRequest request{workload::CollectiveKind::kAllReduce, core::Bytes(1e6),
                                          machine.topology.units(), &machine};
  policy::RouteMeasurements routes(request);
  const auto collective = catalog.collective.at("throwing-collective").make({}, catalog.collective);
  try {
    (void)collective->estimate(request, hw::CollectiveProtocol::kSimple, routes);
    FAIL("a negative estimate should be refused");
  } catch (const core::InputError& e) {
    CHECK(contains(e.message(), "gave an estimate of -1.000000 s (expected a finite time of at least zero)"));
  }
}

namespace {

/// An all-reduce of `bytes` over the first `n` units of `machine`.
policy::CollectiveRequest all_reduce(const topology::Machine& machine, uint32_t n, double bytes) {
  const auto& units = machine.topology.units();
  return {workload::CollectiveKind::kAllReduce, core::Bytes(bytes),
          std::vector<topology::NodeId>(units.begin(), units.begin() + n), &machine};
}

}  // namespace

TEST_CASE("auto weighs a plugin's collective by its own estimate and schedules it where it is least") {
  // Eight units on one non-blocking switch, 100 GB/s links: the example's direct all-reduce takes
  // 2 alpha + 2 (n-1)/n S/B (each step's n-1 transfers out of a member share its link), the ring's
  // bandwidth term with 2 alpha instead of 2 (n-1) alpha, so it wins at every size.
  const auto machine = test::single_switch_machine(128, test::unit_model("1PFLOPS", 1, "0s"),
                                                   test::link_model("100GB/s", "1us"));
  policy::PolicyCatalog catalog;
  plugin::load_plugin(example("collective"), catalog);
  const auto with_plugin = policy::make_collective_policy(catalog.collective, "auto");
  const auto built_in = policy::make_collective_policy("auto");
  for (double bytes : {4096.0, 1e6, 1e9}) {
    CAPTURE(bytes);
    const auto request = all_reduce(machine, 8, bytes);
    CHECK(with_plugin->schedule(request).algorithm == "auto:direct");
    CHECK(built_in->schedule(request).algorithm != "auto:direct");
    policy::RouteMeasurements routes(request);
    const double alpha = routes.all().alpha;
    const auto direct = catalog.collective.at("direct-all-reduce").make({}, catalog.collective);
    const auto seconds = direct->estimate(request, hw::CollectiveProtocol::kSimple, routes);
    REQUIRE(seconds);
    CHECK(seconds->value() == doctest::Approx(2 * alpha + 2 * 7.0 / 8 * bytes / 100e9).epsilon(1e-12));
  }
  // Beyond 64 members the example offers no estimate, and auto chooses among the others.
  const auto large = all_reduce(machine, 128, 1e9);
  CHECK(with_plugin->schedule(large).algorithm == built_in->schedule(large).algorithm);
}
