// Test helper: runs a shipped scenario as a user would and compares its output files byte for byte with
// the committed golden copies in tests/golden/<folder>/ (tests/golden/update.sh writes them anew).
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace zs::test {

/// The files each command writes, compared whole.
inline const std::vector<std::string> kRunFiles = {"summary.json", "config.json", "report.txt"};
inline const std::vector<std::string> kGoodputFiles = {"goodput.json", "config.json", "report.txt"};
inline const std::vector<std::string> kPlanFiles = {"hostfile", "ranks.json", "launch.sbatch", "plan.json"};

/// Runs `zettasim <command> scenarios/<scenario>.json` from the source tree (so the report names the
/// file as a user in the repository would) and checks each of `files` against
/// tests/golden/<golden_folder>/.
inline void check_golden(const std::string& command, const std::string& scenario,
                         const std::string& golden_folder, const std::vector<std::string>& files) {
  TempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(ZS_SOURCE_DIR);
  const CliResult r =
      run_cli({command, "scenarios/" + scenario + ".json", "--out", dir.file("out"), "--quiet"});
  std::filesystem::current_path(before);
  REQUIRE(r.code == 0);
  const std::filesystem::path golden = std::filesystem::path(ZS_SOURCE_DIR) / "tests/golden" / golden_folder;
  for (const auto& f : files) {
    CAPTURE(f);
    REQUIRE(std::filesystem::exists(golden / f));
    CHECK(read_text(dir.path() / "out" / f) == read_text(golden / f));
  }
}

}  // namespace zs::test
