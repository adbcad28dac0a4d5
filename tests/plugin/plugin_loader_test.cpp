// Plugins load into a catalog all or nothing, and each way of breaking the contract is one clear error.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "plugin/plugin_loader.hpp"
#include "support/temp_dir.hpp"

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
  CHECK(catalog.placement.entries().size() == placements + 1);
  CHECK(catalog.collective.entries().size() == collectives + 1);
  REQUIRE(catalog.plugins.size() == 2);
  CHECK(catalog.plugins[0].name == "example-placement");
  CHECK(catalog.plugins[1].name == "example-collective");
  CHECK(catalog.plugins[0].file.front() == '/');
  const auto& entry = catalog.collective.at("direct-all-reduce");
  CHECK(contains(entry.description, "[plugin example-collective]"));
  CHECK(entry.make(policy::CollectiveOptions{})->name() == "direct-all-reduce");
  CHECK(catalog.placement.at("domain-packed").make(nullptr)->name() == "domain-packed");
}

TEST_CASE("each broken plugin is refused with one line naming it, and the catalog is left as it was") {
  test::TempDir dir;
  const std::string text_file = dir.write("not-a-library.so", "this is not an ELF file\n");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {faulty("no_entry_point"), "exports no zettasim_plugin entry point"},
      {faulty("other_version"), "built against zettasim 0.0.0-other (plugin ABI 2), this is zettasim"},
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
  const auto collective = catalog.collective.at("throwing-collective").make(policy::CollectiveOptions{});
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
