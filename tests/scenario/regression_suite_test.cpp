// Regression suite files: what they declare, and one clear error for each way they can be wrong.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/regression_suite.hpp"
#include "support/input_error_of.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

nlohmann::json suite() {
  return {
      {"kind", "regression-suite"},
      {"name", "s"},
      {"plugins", {"p.so"}},
      {"metrics", {{{"metric", "mfu"}, {"direction", "higher-is-better"}, {"relative_tolerance", 0.01}}}},
      {"cases",
       {{{"name", "a"}, {"scenario", "a.json"}, {"placement", "random"}},
        {{"name", "b"},
         {"scenario", "a.json"},
         {"study", "goodput"},
         {"plugins", {"q.so"}},
         {"metrics", {{{"metric", "/ettr/mean"}, {"direction", "both"}, {"absolute_tolerance", 0.005}}}}}}}};
}

std::string load_error(const test::TempDir& dir, const nlohmann::json& doc) {
  const std::string path = dir.write("suite.json", doc.dump());
  return test::input_error_of([&] { scenario::RegressionSuite::load(core::DiskFileSource(), path); });
}

}  // namespace

TEST_CASE("a suite's cases take the suite's metrics and plugins unless they give their own") {
  test::TempDir dir;
  dir.write("a.json", "{}");
  const auto s =
      scenario::RegressionSuite::load(core::DiskFileSource(), dir.write("suite.json", suite().dump()));
  CHECK(s.baselines == dir.file("s.baselines.json"));
  REQUIRE(s.cases.size() == 2);
  CHECK(s.cases[0].metrics.size() == 1);
  CHECK(s.cases[0].metrics[0].pointer() == "/mfu");
  CHECK(s.cases[0].metrics[0].direction == scenario::MetricDirection::kHigherIsBetter);
  CHECK(s.cases[0].plugins == std::vector<std::string>{dir.file("p.so")});
  CHECK(s.cases[0].placement == "random");
  CHECK(!s.cases[0].goodput);
  CHECK(s.cases[1].goodput);
  CHECK(s.cases[1].plugins == std::vector<std::string>{dir.file("p.so"), dir.file("q.so")});
  CHECK(s.cases[1].metrics[0].pointer() == "/ettr/mean");
  CHECK(!s.cases[1].metrics[0].relative);
  CHECK(s.cases[1].metrics[0].tolerance == 0.005);
}

TEST_CASE("a bad suite is one error naming the JSON path") {
  test::TempDir dir;
  dir.write("a.json", "{}");
  auto doc = suite();
  doc["cases"][1]["name"] = "a";
  CHECK(load_error(dir, doc).find("/cases/1/name: a second case named \"a\"") != std::string::npos);
  doc = suite();
  doc["cases"][0]["scenario"] = "missing.json";
  CHECK(load_error(dir, doc).find("/cases/0/scenario: no scenario file at") != std::string::npos);
  doc = suite();
  doc["metrics"][0]["absolute_tolerance"] = 1;
  CHECK(load_error(dir, doc).find("/metrics/0: expected exactly one of \"relative_tolerance\" and") !=
        std::string::npos);
  doc = suite();
  doc["metrics"][0]["direction"] = "down";
  CHECK(load_error(dir, doc).find("/metrics/0/direction: ") != std::string::npos);
  doc = suite();
  doc.erase("metrics");
  CHECK(load_error(dir, doc).find("/cases/0: the case compares no metric") != std::string::npos);
  doc = suite();
  doc["cases"][0]["name"] = "../x";
  CHECK(load_error(dir, doc).find("/cases/0/name: ") != std::string::npos);
  doc = suite();
  doc["cases"][0]["bogus"] = 1;
  CHECK(load_error(dir, doc).find("/cases/0/bogus") != std::string::npos);
  doc = suite();
  doc["kind"] = "sweep";
  CHECK(load_error(dir, doc).find("/kind: expected \"regression-suite\"") != std::string::npos);
}

TEST_CASE("a baselines file is read by case and metric, and a bad one is one error naming its JSON path") {
  test::TempDir dir;
  dir.write("a.json", "{}");
  const auto s =
      scenario::RegressionSuite::load(core::DiskFileSource(), dir.write("suite.json", suite().dump()));
  const auto baselines_error = [&](const nlohmann::json& doc) {
    dir.write("s.baselines.json", doc.dump());
    return test::input_error_of([&] { scenario::load_regression_baselines(core::DiskFileSource(), s); });
  };
  CHECK(scenario::load_regression_baselines(core::DiskFileSource(), s).empty());  // none written yet
  nlohmann::json good = {
      {"kind", "regression-baselines"}, {"suite", "s"}, {"cases", {{"a", {{"mfu", 0.5}}}}}};
  dir.write("s.baselines.json", good.dump());
  CHECK(scenario::load_regression_baselines(core::DiskFileSource(), s).at("a").at("mfu") == 0.5);

  auto doc = good;
  doc["kind"] = 5;  // not a string: refused at the key, not a JSON library's type error
  CHECK(baselines_error(doc).find("/kind: expected a baselines file") != std::string::npos);
  doc = good;
  doc["suite"] = {"s"};
  CHECK(baselines_error(doc).find("/suite: expected the baselines of suite \"s\"") != std::string::npos);
  doc = good;
  doc["cases"] = {{"a/b", {{"mfu", "high"}}}};
  CHECK(baselines_error(doc).find("/cases/a~1b/mfu: expected a finite number") != std::string::npos);
  doc = good;
  doc["case"] = {{"a", {{"mfu", 0.4}}}};  // a misspelt key is refused, not ignored
  CHECK(baselines_error(doc).find("/case: unknown key") != std::string::npos);
}
