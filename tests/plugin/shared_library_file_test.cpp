// A plugin file is checked as a whole ELF shared library before dlopen maps it.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "plugin/plugin_loader.hpp"
#include "plugin/shared_library_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

const std::string kExample = std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_collective.so";

/// The first `bytes` bytes of the example plugin, as a file of `dir`.
std::string truncated(const test::TempDir& dir, uint64_t bytes) {
  const std::string whole = test::read_text(kExample);
  return dir.write("cut-" + std::to_string(bytes) + ".so", whole.substr(0, bytes));
}

}  // namespace

TEST_CASE("a whole plugin passes, a truncated one is named as such at every length, never loaded") {
  CHECK_FALSE(plugin::shared_library_problem(kExample));
  test::TempDir dir;
  const uint64_t size = fs::file_size(kExample);
  for (const uint64_t bytes :
       {uint64_t(0), uint64_t(10), uint64_t(64), uint64_t(300), size / 3, size / 2, size - 1}) {
    CAPTURE(bytes);
    const std::string file = truncated(dir, bytes);
    const auto problem = plugin::shared_library_problem(file);
    REQUIRE(problem);
    policy::PolicyCatalog catalog;
    try {
      plugin::load_plugin(file, catalog);  // before the check, dlopen of such a file died of SIGBUS
      FAIL("a truncated plugin loaded");
    } catch (const core::InputError& e) {
      CHECK(std::string(e.what()).find("cannot load the plugin: the file is ") != std::string::npos);
    }
  }
  CHECK(*plugin::shared_library_problem(dir.write("text.so", std::string(100, 'x'))) == "not an ELF file");
  CHECK(plugin::shared_library_problem(truncated(dir, size / 2))->rfind("truncated: ", 0) == 0);
}
