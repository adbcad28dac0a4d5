// Sweep plans: pointers followed into the files a scenario includes, values checked against the parameter's
// kind, ranges, samples, grid and zip, exclusions, and each point's scenario holding the values set.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "core/file_source.hpp"
#include "scenario/sweep_plan.hpp"
#include "support/input_error_of.hpp"
#include "support/scenario_files.hpp"

using namespace zs;

namespace {

/// A sweep over the small test scenario, written beside it as sweep.json.
struct SweepFiles {
  test::TempDir dir;
  test::ScenarioFiles scenario;
  nlohmann::json sweep = {
      {"kind", "sweep"}, {"name", "s"}, {"base", "scenario.json"}, {"axes", nlohmann::json::array()}};

  void axis(const std::string& name, const std::string& pointer, nlohmann::json values) {
    sweep["axes"].push_back({{"name", name}, {"pointer", pointer}, {"values", std::move(values)}});
  }
  scenario::SweepPlan plan() {
    scenario.write(dir);
    const std::string path = dir.write("sweep.json", sweep.dump(2));
    core::DiskFileSource disk;
    return scenario::SweepPlan::make(disk, scenario::SweepSpec::load(disk, path));
  }
  /// The error making the plan raises, with the temporary folder left out of the file name.
  std::string error() {
    std::string e = test::input_error_of([&] { plan(); });
    const std::string prefix = dir.path().string() + "/";
    for (size_t at; (at = e.find(prefix)) != std::string::npos;) e.erase(at, prefix.size());
    return e;
  }
  scenario::Scenario point(const scenario::SweepPlan& p, uint64_t index) {
    core::DiskFileSource disk;
    return scenario::load_sweep_point(disk, p, index);
  }
};

const nlohmann::json& at(const scenario::Scenario& s, const std::string& pointer) {
  return s.resolved.at(nlohmann::json::json_pointer(pointer));
}

}  // namespace

TEST_CASE("sweep pointers reach the model, topology and workload files a scenario includes") {
  SweepFiles f;
  f.axis("peak", "/machine/models/gpu/matrix_peak/bf16", {"200TFLOP/s"});
  f.axis("bandwidth", "/machine/models/link/bandwidth", {"25GB/s"});
  f.axis("units", "/machine/topology/units", {8});
  f.axis("layers", "/workload/model/layers", {4});
  f.axis("seed", "/seed", {11});
  const auto plan = f.plan();
  REQUIRE(plan.points.size() == 1);
  const scenario::Scenario s = f.point(plan, 0);
  CHECK(at(s, "/machine/models/gpu/matrix_peak/bf16") == "200TFLOP/s");
  CHECK(s.machine.unit_models.at(0).matrix_peak(core::Dtype::kBf16).value() == 200e12);
  CHECK(at(s, "/machine/models/link/bandwidth") == "25GB/s");
  CHECK(s.machine.unit_count() == 8);
  CHECK(at(s, "/workload/model/layers") == 4);
  CHECK(s.seed == 11);
  // a value a sweep sets in a model file says so where the model cites its sources
  CHECK(at(s, "/machine/models/gpu/sources/matrix_peak.bf16")
            .get<std::string>()
            .rfind("what-if: set by a sweep", 0) == 0);
}

TEST_CASE("a sweep sets a generator's plan, a policy and a default the file leaves out") {
  SweepFiles f;
  f.axis("dp", "/workload/data_parallel", {2, 4});
  f.axis("collective", "/policies/collective", {"ring", "double-binary-tree"});
  f.axis("fidelity", "/fidelity", {"exact"});  // left out of scenario.json: "auto" by default
  const auto plan = f.plan();
  REQUIRE(plan.points.size() == 4);
  // the grid: the first axis varies slowest
  CHECK(plan.points[1].values == std::vector<nlohmann::json>{2, "double-binary-tree", "exact"});
  CHECK(plan.points[2].values == std::vector<nlohmann::json>{4, "ring", "exact"});
  const auto s = f.point(plan, 1);
  CHECK(s.trace.mesh.size() == 2);
  CHECK(s.collective_policy == "double-binary-tree");
  CHECK(s.fidelity == core::Fidelity::kExact);
}

TEST_CASE("a sweep axis may name another model file in place of a model") {
  SweepFiles f;
  nlohmann::json faster = f.scenario.gpu;
  faster["matrix_peak"]["bf16"] = "400TFLOPS";
  f.dir.write("models/faster-gpu.json", faster.dump());
  f.axis("gpu", "/machine/models/gpu", {"models/gpu.json", "models/faster-gpu.json"});
  const auto plan = f.plan();
  CHECK(at(f.point(plan, 0), "/machine/models/gpu/matrix_peak/bf16") == "100TFLOP/s");
  CHECK(at(f.point(plan, 1), "/machine/models/gpu/matrix_peak/bf16") == "400TFLOP/s");
}

TEST_CASE("an axis naming another model file and an axis setting its values: the values land in that file") {
  for (const bool file_axis_first : {true, false}) {
    CAPTURE(file_axis_first);
    SweepFiles f;
    nlohmann::json faster = f.scenario.gpu;
    faster["matrix_peak"]["bf16"] = "400TFLOPS";
    f.dir.write("models/faster-gpu.json", faster.dump());
    const auto gpu = [&] {
      f.axis("gpu", "/machine/models/gpu", {"models/gpu.json", "models/faster-gpu.json"});
    };
    const auto peak = [&] { f.axis("peak", "/machine/models/gpu/matrix_peak/bf16", {"250TFLOP/s"}); };
    if (file_axis_first)
      gpu(), peak();
    else
      peak(), gpu();
    const auto plan = f.plan();
    REQUIRE(plan.points.size() == 2);
    for (uint64_t p = 0; p < 2; ++p) {
      const scenario::Scenario s = f.point(plan, p);
      CHECK(s.machine.unit_models.at(0).matrix_peak(core::Dtype::kBf16).value() == 250e12);
      CHECK(at(s, "/machine/models/gpu/matrix_peak/bf16") == "250TFLOP/s");
    }
    // The file the second point names is the one it reads: its other values are the faster model's.
    CHECK(at(f.point(plan, 1), "/machine/models/gpu/sources/matrix_peak.bf16")
              .get<std::string>()
              .rfind("what-if: set by a sweep", 0) == 0);
  }
}

TEST_CASE(
    "an axis naming another machine file whose model file differs: a value set in its model lands there") {
  SweepFiles f;
  nlohmann::json faster = f.scenario.gpu;
  faster["matrix_peak"]["bf16"] = "400TFLOPS";
  f.dir.write("models/faster-gpu.json", faster.dump());
  const auto machine = [&](const std::string& name, const std::string& gpu) {
    f.dir.write("machines/" + name,
                nlohmann::json{{"kind", "machine"},
                               {"topology", "../topologies/switch-4.json"},
                               {"models", {{"gpu", "../models/" + gpu}, {"link", "../models/link.json"}}}}
                    .dump());
  };
  machine("base.json", "gpu.json");
  machine("faster.json", "faster-gpu.json");
  f.scenario.scenario["machine"] = "machines/base.json";
  f.axis("vector", "/machine/models/gpu/vector_peak", {"30TFLOP/s"});
  f.axis("machine", "/machine", {"machines/faster.json"});
  const auto plan = f.plan();
  const scenario::Scenario s = f.point(plan, 0);
  CHECK(at(s, "/machine/models/gpu/matrix_peak/bf16") == "400TFLOP/s");  // the faster model's file
  CHECK(at(s, "/machine/models/gpu/vector_peak") == "30TFLOP/s");
}

TEST_CASE("a sweep's bad pointers and values are refused with the sweep file and the axis's path") {
  SUBCASE("a pointer that resolves to nothing") {
    SweepFiles f;
    f.axis("x", "/workload/micro_batches", {1});
    CHECK(f.error() ==
          "sweep.json: /axes/0/pointer: \"/workload/micro_batches\" names nothing in the resolved "
          "configuration (config.json)");
  }
  SUBCASE("a value zettasim derives") {
    SweepFiles f;
    f.axis("x", "/derived/machine/units", {8});
    CHECK(f.error() ==
          "sweep.json: /axes/0/pointer: \"/derived/machine/units\" is derived, not a parameter a file sets: "
          "the loader, counting the parts of the machine (/machine) sets it");
  }
  SUBCASE("a value of the wrong type") {
    SweepFiles f;
    f.axis("x", "/workload/micro_batch", {1, "2"});
    CHECK(f.error() ==
          "sweep.json: /axes/0/values/1: expected a whole number (the parameter is "
          "\"/workload/micro_batch\"), got \"2\"");
  }
  SUBCASE("a quantity in the wrong unit") {
    SweepFiles f;
    f.axis("x", "/machine/models/link/bandwidth", {"100GB/s", "100TFLOP/s"});
    CHECK(f.error().find("sweep.json: /axes/0/values/1: expected a bandwidth such as \"400Gb/s\"") == 0);
  }
  SUBCASE("a model file that does not exist") {
    SweepFiles f;
    f.axis("x", "/machine/models/gpu", {"models/none.json"});
    CHECK(f.error().find("sweep.json: /axes/0/values/0: no file at") == 0);
  }
  SUBCASE("a range over text") {
    SweepFiles f;
    f.sweep["axes"].push_back({{"name", "x"},
                               {"pointer", "/policies/placement"},
                               {"range", {{"from", 1}, {"to", 2}, {"steps", 2}}}});
    CHECK(
        f.error() ==
        "sweep.json: /axes/0/range: a range needs a numeric parameter; \"/policies/placement\" is a string");
  }
  SUBCASE("zip over axes of different lengths") {
    SweepFiles f;
    f.sweep["combine"] = "zip";
    f.axis("a", "/workload/micro_batch", {1, 2});
    f.axis("b", "/seed", {1, 2, 3});
    CHECK(f.error() == "sweep.json: /combine: zip needs axes of one length: \"a\" has 2 values, \"b\" has 3");
  }
}

TEST_CASE("sweep ranges are evenly spaced in the parameter's unit, linear or log") {
  SweepFiles f;
  f.sweep["axes"].push_back(
      {{"name", "bw"},
       {"pointer", "/machine/models/link/bandwidth"},
       {"range", {{"from", "10GB/s"}, {"to", "1000GB/s"}, {"steps", 3}, {"scale", "log"}}}});
  f.sweep["axes"].push_back({{"name", "mb"},
                             {"pointer", "/workload/micro_batch"},
                             {"range", {{"from", 1}, {"to", 4}, {"steps", 4}}}});
  const auto plan = f.plan();
  REQUIRE(plan.points.size() == 12);
  CHECK(plan.spec.axes[0].values == std::vector<nlohmann::json>{"10GB/s", "100GB/s", "1TB/s"});
  CHECK(plan.spec.axes[1].values == std::vector<nlohmann::json>{1, 2, 3, 4});
  // Log steps of a power of two land on powers of two (not 4194303.9999999995 B).
  SweepFiles g;
  g.sweep["axes"].push_back(
      {{"name", "hbm"},
       {"pointer", "/machine/models/gpu/hbm_capacity"},
       {"range", {{"from", "1MiB"}, {"to", "16GiB"}, {"steps", 15}, {"scale", "log"}}}});
  const auto sizes = g.plan().spec.axes[0].values;
  REQUIRE(sizes.size() == 15);
  CHECK(sizes[2] == "4MiB");
  CHECK(sizes[10] == "1GiB");
  CHECK(sizes[13] == "8GiB");
}

TEST_CASE("latin-hypercube samples put one point in each stratum of every axis, the same for the same seed") {
  SweepFiles f;
  f.sweep["samples"] = {{"count", 8}, {"method", "latin-hypercube"}};
  f.sweep["axes"].push_back({{"name", "eff"},
                             {"pointer", "/machine/models/gpu/matrix_efficiency"},
                             {"sample", {{"from", 0.2}, {"to", 1.0}}}});
  f.sweep["axes"].push_back({{"name", "lat"},
                             {"pointer", "/machine/models/link/latency"},
                             {"sample", {{"from", "1us"}, {"to", "100us"}, {"scale", "log"}}}});
  const auto plan = f.plan();
  REQUIRE(plan.points.size() == 8);
  std::set<int> eff_strata, lat_strata;
  for (const auto& p : plan.points) {
    eff_strata.insert(static_cast<int>((p.values[0].get<double>() - 0.2) / 0.8 * 8));
    const double lat = core::parse_seconds(p.values[1].get<std::string>()).value();
    lat_strata.insert(static_cast<int>(std::log(lat / 1e-6) / std::log(100.0) * 8));
  }
  CHECK(eff_strata.size() == 8);
  CHECK(lat_strata.size() == 8);
  CHECK(f.plan().points[5].values == plan.points[5].values);
}

TEST_CASE("excluded points are left out and the rest renumbered") {
  SweepFiles f;
  f.axis("dp", "/workload/data_parallel", {2, 4});
  f.axis("collective", "/policies/collective", {"ring", "double-binary-tree"});
  f.sweep["exclude"] = {{{"dp", 4}, {"collective", "ring"}}};
  const auto plan = f.plan();
  REQUIRE(plan.points.size() == 3);
  CHECK(plan.points[2].index == 2);
  CHECK(plan.points[2].values == std::vector<nlohmann::json>{4, "double-binary-tree"});
}

TEST_CASE("an exclusion names values its axes take: of their type, in a unit they parse, on the axis") {
  auto refusal = [](nlohmann::json exclude) {
    SweepFiles f;
    f.axis("dp", "/workload/data_parallel", {2, 4});
    f.axis("hbm", "/machine/models/gpu/hbm_capacity", {"40GiB", "80GiB"});
    f.sweep["exclude"] = nlohmann::json::array({std::move(exclude)});
    return f.error();
  };
  CHECK(refusal({{"dp", 4}, {"hbm", "81920MiB"}}) == "(no error)");  // the same 80 GiB in another unit
  CHECK(refusal({{"dp", "4"}}) ==
        "sweep.json: /exclude/0/dp: expected one of axis \"dp\"'s values (a whole number: 2, 4), got \"4\"");
  CHECK(refusal({{"dp", 3}}).find("/exclude/0/dp: expected one of axis \"dp\"'s values") != std::string::npos);
  CHECK(refusal({{"dp", 2}, {"hbm", "80GB/s"}}).find("sweep.json: /exclude/0/hbm: expected one of axis \"hbm\"'s "
                                                     "values (") == 0);
  SweepFiles sampled;
  sampled.sweep["samples"] = {{"count", 4}};
  sampled.sweep["axes"].push_back({{"name", "eff"},
                                   {"pointer", "/machine/models/gpu/matrix_efficiency"},
                                   {"sample", {{"from", 0.2}, {"to", 1.0}}}});
  sampled.sweep["exclude"] = {{{"eff", 0.5}}};
  CHECK(sampled.error() ==
        "sweep.json: /exclude/0/eff: axis \"eff\" is sampled: its values are drawn, none can be excluded");
}

TEST_CASE("a NUL or a newline in an axis's pointer is written out in the refusal, which stays one line") {
  SweepFiles f;
  f.axis("a", std::string("/workload/pl\0an\n/x", 18), {1});
  CHECK(f.error() == "sweep.json: /axes/0/pointer: \"/workload/pl\\x00an\\n/x\" names nothing in the resolved "
                     "configuration (config.json)");
}

TEST_CASE("an integer range's ends are whole numbers a double holds exactly (within 2^53)") {
  SweepFiles f;
  f.sweep["axes"].push_back({{"name", "seed"},
                             {"pointer", "/seed"},
                             {"range", {{"from", 1}, {"to", INT64_MAX - 1}, {"steps", 3}}}});
  CHECK(f.error() == "sweep.json: /axes/0/range/to: expected a whole number within +-9007199254740992 (2^53), "
                     "got 9223372036854775806");
  f.sweep["axes"][0]["range"]["to"] = 9007199254740992LL;
  CHECK(f.error() == "(no error)");
  CHECK(f.plan().spec.axes[0].values.back() == 9007199254740992LL);
}

TEST_CASE("a point the scenario refuses is an input error of that point alone") {
  SweepFiles f;
  f.axis("mb", "/workload/micro_batch", {1, 3});
  const auto plan = f.plan();
  CHECK_NOTHROW(f.point(plan, 0));
  CHECK_THROWS_AS(f.point(plan, 1), core::InputError);  // 4 ranks x 3 does not divide the global batch 4
}
