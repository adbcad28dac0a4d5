// Sweep files: every key checked, and every mistake named by the file and JSON path.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "scenario/sweep_spec.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

nlohmann::json valid() {
  return {{"kind", "sweep"},
          {"name", "s"},
          {"base", {{"kind", "scenario"}}},
          {"axes", {{{"name", "dp"}, {"pointer", "/workload/data_parallel"}, {"values", {1, 2}}}}}};
}

std::string error_of(const nlohmann::json& sweep) {
  core::BundledFileSource files({{"sweep.json", sweep.dump()}});
  return test::input_error_of([&] { scenario::SweepSpec::load(files, "sweep.json"); });
}

}  // namespace

TEST_CASE("a sweep file reads its base, axes and how they combine") {
  core::BundledFileSource files({{"sweeps/sweep.json", valid().dump()}});
  const auto spec = scenario::SweepSpec::load(files, "sweeps/sweep.json");
  CHECK(spec.base_inline);
  CHECK(spec.base_path == "sweeps/sweep.json#base");
  REQUIRE(spec.axes.size() == 1);
  CHECK(spec.axes[0].where == "/axes/0");
  CHECK(spec.axes[0].values.size() == 2);
  CHECK_FALSE(spec.zip);
  CHECK(spec.resolved.at("combine") == "grid");
  CHECK(spec.resolved.at("seed") == 1);
}

TEST_CASE("every kind of bad sweep file is refused with its path") {
  auto s = valid();
  s["kind"] = "scenario";
  CHECK(error_of(s) == "sweep.json: /kind: expected \"sweep\" for a sweep file, got \"scenario\"");
  s = valid();
  s["axes"] = nlohmann::json::array();
  CHECK(error_of(s) == "sweep.json: /axes: expected at least one axis");
  s = valid();
  s["axes"][0]["values"] = nlohmann::json::array();
  CHECK(error_of(s) == "sweep.json: /axes/0/values: expected at least one value, got an empty array");
  s = valid();
  s["axes"][0]["range"] = {{"from", 1}, {"to", 2}, {"steps", 2}};
  CHECK(error_of(s) == "sweep.json: /axes/0: expected exactly one of \"values\", \"range\" and \"sample\"");
  s = valid();
  s["axes"][0]["name"] = "data parallel";
  CHECK(error_of(s).find("sweep.json: /axes/0/name: expected letters, digits and _") == 0);
  s = valid();
  s["axes"].push_back(s["axes"][0]);
  CHECK(error_of(s) == "sweep.json: /axes/1/name: a second axis named \"dp\"");
  s = valid();
  s["axes"][0]["pointer"] = "workload";
  CHECK(error_of(s) ==
        "sweep.json: /axes/0/pointer: expected a JSON pointer starting with \"/\", got \"workload\"");
  s = valid();
  s["exclude"] = {{{"tp", 2}}};
  CHECK(error_of(s) == "sweep.json: /exclude/0/tp: no axis is named \"tp\"");
  s = valid();
  s["axes"][0].erase("values");
  s["axes"][0]["sample"] = {{"from", 1}, {"to", 8}};
  CHECK(error_of(s) ==
        "sweep.json: /: missing required key \"samples\": how many points to draw for the sampled axes");
  s = valid();
  s["name"] = "../x";
  CHECK(error_of(s).find("sweep.json: /name: ") == 0);
  s = valid();
  s["base"] = 3;
  CHECK(error_of(s) ==
        "sweep.json: /base: expected a scenario file's path or the scenario inline (an object)");
  s = valid();
  s["base"] = "missing.json";
  CHECK(error_of(s) == "sweep.json: /base: no scenario file at \"missing.json\"");
  s = valid();
  s["axis"] = 1;
  CHECK(error_of(s).find("sweep.json: /axis: unknown key") == 0);
  s = valid();
  s["combine"] = "product";
  CHECK(error_of(s).find("sweep.json: /combine: ") == 0);
}
