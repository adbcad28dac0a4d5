// Every shipped scenario's results, byte for byte against tests/golden (goodput where it has a reliability
// section): a change that moves any figure, word or key of an output shows here. The largest scenarios'
// are in golden_headline_test.cpp (label slow).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "support/golden_outputs.hpp"

namespace fs = std::filesystem;
using zs::test::check_golden;
using zs::test::kGoodputFiles;
using zs::test::kPlanFiles;
using zs::test::kRunFiles;

TEST_CASE("golden run: default") {
  check_golden("run", "default", "default", kRunFiles);
}
TEST_CASE("golden run: disaggregated-ocs") {
  check_golden("run", "disaggregated-ocs", "disaggregated-ocs", kRunFiles);
}
TEST_CASE("golden run: hgx-3d-parallel") {
  check_golden("run", "hgx-3d-parallel", "hgx-3d-parallel", kRunFiles);
}
TEST_CASE("golden run: moe-10t-16k") {
  check_golden("run", "moe-10t-16k", "moe-10t-16k", kRunFiles);
}
TEST_CASE("golden run: moe-ep-64") {
  check_golden("run", "moe-ep-64", "moe-ep-64", kRunFiles);
}
TEST_CASE("golden run: qwen3-ep128-skewed") {
  check_golden("run", "qwen3-ep128-skewed", "qwen3-ep128-skewed", kRunFiles);
}
TEST_CASE("golden goodput: moe-10t-16k") {
  check_golden("goodput", "moe-10t-16k", "moe-10t-16k-goodput", kGoodputFiles);
}

TEST_CASE("golden plan: planner/gpt3-1.3b-hgx-h100-4node") {
  check_golden("plan", "planner/gpt3-1.3b-hgx-h100-4node", "plan-gpt3-1.3b-hgx-h100-4node", kPlanFiles);
}

TEST_CASE("every shipped scenario has golden results, and goodput ones when it has a reliability section") {
  std::set<std::string> goldens;
  for (const auto& e : fs::directory_iterator(fs::path(ZS_SOURCE_DIR) / "tests/golden"))
    if (e.is_directory()) goldens.insert(e.path().filename().string());
  int scenarios = 0;
  for (const auto& e : fs::directory_iterator(fs::path(ZS_SOURCE_DIR) / "scenarios")) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().stem().string();
    CAPTURE(name);
    CHECK(goldens.count(name) == 1);
    const bool reliability = zs::test::read_text(e.path()).find("\"reliability\"") != std::string::npos;
    CHECK(goldens.count(name + "-goodput") == (reliability ? 1u : 0u));
    ++scenarios;
  }
  CHECK(scenarios == 9);
}

TEST_CASE("no golden run loads a link direction or a memory pool above 100% of the iteration") {
  // The goldens are the program's output (the cases above); a utilization above 1 would mean bytes
  // moved faster than the link allows, in either fidelity.
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(ZS_SOURCE_DIR) / "tests/golden")) {
    const auto summary = entry.path() / "summary.json";
    if (!fs::exists(summary)) continue;
    CAPTURE(entry.path().filename().string());
    std::ifstream in(summary);
    const auto j = nlohmann::json::parse(in);
    CHECK(j.at("utilization").at("link_max").get<double>() <= 1.0 + 1e-9);
    CHECK(j.at("utilization").at("memory_pool_max").get<double>() <= 1.0 + 1e-9);
    ++checked;
  }
  CHECK(checked >= 8);
}
