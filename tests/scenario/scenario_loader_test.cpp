// Scenario loading: a valid scenario resolves fully; every kind of bad input names file and JSON path.
#include <doctest/doctest.h>

#include <functional>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/scenario_files.hpp"

using namespace zs;

namespace {
struct Failure {
  std::string file, path, message;
};

/// Loads the scenario after `mutate`; returns the error (file relative to the temp folder).
Failure failure_after(const std::function<void(test::ScenarioFiles&, const test::TempDir&)>& mutate) {
  test::TempDir dir;
  test::ScenarioFiles files;
  mutate(files, dir);  // edits the JSON to write, or writes a broken scenario.json itself
  std::string path = dir.file("scenario.json");
  if (!std::filesystem::exists(path)) path = files.write(dir);
  core::DiskFileSource disk;
  try {
    scenario::ScenarioLoader(disk).load(path);
  } catch (const core::InputError& e) {
    std::string prefix = dir.path().string() + "/";
    std::string file = e.file().rfind(prefix, 0) == 0 ? e.file().substr(prefix.size()) : e.file();
    return {file, e.json_path(), e.what()};
  }
  return {"", "", "(no error)"};
}
}  // namespace

TEST_CASE("a valid scenario loads with every value resolved") {
  test::TempDir dir;
  test::ScenarioFiles files;
  core::DiskFileSource disk;
  auto s = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(s.name == "hand");
  CHECK(s.seed == 7);
  CHECK(s.machine.unit_count() == 4);
  CHECK(s.trace.mesh.size() == 4);
  CHECK(s.resolved["machine"]["models"]["gpu"]["matrix_peak"]["bf16"] == "100TFLOP/s");
  CHECK(s.resolved["machine"]["models"]["link"]["latency"] == "1us");
  CHECK(s.resolved["workload"]["model"]["ffn_hidden"] == 4096);
  CHECK(s.resolved["derived"]["workload"]["accumulation_steps"] == 1);
  CHECK(s.resolved["policies"]["collective"]["name"] == "ring");
  CHECK(s.resolved["policies"]["collective"]["chunk"] == "4MiB");  // a name alone: the options' defaults
  CHECK(s.resolved["derived"]["machine"]["units"] == 4);
  CHECK(s.resolved["derived"]["files"]["/machine/models/gpu"] == dir.file("models/gpu.json"));
}

TEST_CASE("unit speed variation is drawn onto the machine from the scenario's seed and resolved") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["unit_speed_variation"] = {{"cv", 0.05}, {"source", "assumption: test"}};
  core::DiskFileSource disk;
  auto s = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(s.unit_speed_variation.cv == 0.05);
  CHECK(s.resolved["unit_speed_variation"]["source"] == "assumption: test");
  auto expected = s.machine;
  expected.unit_slowdown.clear();
  topology::apply_unit_speed_variation(expected, s.unit_speed_variation, s.seed);
  CHECK(s.machine.unit_slowdown == expected.unit_slowdown);
  CHECK_FALSE(s.machine.unit_slowdown.empty());  // seed 7 slows some of the 4 units
  CHECK(s.machine.op_jitter.cv == 0.0);          // per-op jitter off unless op_cv is given
  CHECK(s.resolved["unit_speed_variation"]["op_cv"] == 0.0);
  files.scenario["unit_speed_variation"]["op_cv"] = 0.03;
  auto jittered = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(jittered.machine.op_jitter.cv == 0.03);
  CHECK(jittered.machine.op_jitter.seed == jittered.seed);
  CHECK(jittered.resolved["unit_speed_variation"]["op_cv"] == 0.03);
}

TEST_CASE(
    "NCCL's step latency and protocol choice are on unless the collective policy object turns them off") {
  test::TempDir dir;
  test::ScenarioFiles files;
  core::DiskFileSource disk;
  // A policy given by name has the object's declared defaults.
  auto plain = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(plain.machine.step_latency);
  CHECK(plain.collective_options.protocol == policy::ProtocolSetting::kAuto);
  CHECK(plain.resolved["policies"]["collective"]["step_latency"] == true);
  CHECK(plain.resolved["policies"]["collective"]["protocol"] == "auto");
  CHECK(plain.resolved["machine"]["models"]["link"]["step_latency"] == "0s");
  files.scenario["policies"]["collective"] = {{"name", "ring"}};
  auto named = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(named.machine.step_latency);
  CHECK(named.collective_options.protocol == policy::ProtocolSetting::kAuto);
  files.scenario["policies"]["collective"] = {
      {"name", "ring"}, {"step_latency", false}, {"protocol", "simple"}};
  auto off = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK_FALSE(off.machine.step_latency);
  CHECK(off.resolved["policies"]["collective"]["step_latency"] == false);
  CHECK(off.resolved["policies"]["collective"]["protocol"] == "simple");
}

TEST_CASE("a collective protocol is read, and LL or LL128 refused without the step latency") {
  test::TempDir dir;
  test::ScenarioFiles files;
  core::DiskFileSource disk;
  files.scenario["policies"]["collective"] = {{"name", "ring"}, {"protocol", "ll128"}};
  auto s = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(s.collective_options.protocol == policy::ProtocolSetting::kLl128);
  CHECK(s.resolved["policies"]["collective"]["protocol"] == "ll128");
  // auto without the step latency is Simple's choice; LL's cost is its step latency.
  files.scenario["policies"]["collective"] = {
      {"name", "ring"}, {"step_latency", false}, {"protocol", "auto"}};
  CHECK(scenario::ScenarioLoader(disk).load(files.write(dir)).collective_options.protocol ==
        policy::ProtocolSetting::kAuto);
  const auto without = failure_after([](test::ScenarioFiles& f, const test::TempDir&) {
    f.scenario["policies"]["collective"] = {{"name", "ring"}, {"step_latency", false}, {"protocol", "ll"}};
  });
  CHECK(without.path == "/policies/collective/protocol");
  CHECK(std::string(without.message).find("set \"step_latency\": true") != std::string::npos);
  const auto unknown = failure_after([](test::ScenarioFiles& f, const test::TempDir&) {
    f.scenario["policies"]["collective"] = {{"name", "ring"}, {"protocol", "ll64"}};
  });
  CHECK(unknown.path == "/policies/collective/protocol");
  CHECK(std::string(unknown.message).find("unknown collective protocol \"ll64\"") != std::string::npos);
}

TEST_CASE("a from-file placement map is read relative to the scenario") {
  test::TempDir dir;
  test::ScenarioFiles files;
  files.scenario["policies"]["placement"] = {{"name", "from-file"}, {"map", "maps/four.json"}};
  dir.write("maps/four.json",
            R"({"kind": "placement", "description": "reversed", "units": ["d", "c", "b", "a"]})");
  core::DiskFileSource disk;
  auto s = scenario::ScenarioLoader(disk).load(files.write(dir));
  CHECK(s.placement_policy == "from-file");
  REQUIRE(s.placement_map.has_value());
  CHECK(s.placement_map->unit_names == std::vector<std::string>{"d", "c", "b", "a"});
  CHECK(s.resolved["policies"]["placement"]["map"] == "maps/four.json");  // as the file writes it
  CHECK(s.resolved["derived"]["placement_map"] == dir.file("maps/four.json"));
}

TEST_CASE("bad input: each case names the file and the JSON path") {
  using F = test::ScenarioFiles;
  using D = test::TempDir;
  struct Case {
    const char* what;
    std::function<void(F&, const D&)> mutate;
    const char* file;
    const char* path;
    const char* says;
  };
  const Case cases[] = {
      {"malformed JSON", [](F&, const D& d) { d.write("scenario.json", "{\"kind\": \"scenario\",,}"); },
       "scenario.json", "", "malformed JSON at line 1"},
      {"unknown key", [](F& f, const D&) { f.scenario["workload"]["micro_batches"] = 2; }, "scenario.json",
       "/workload/micro_batches", "unknown key"},
      {"missing model file",
       [](F& f, const D&) { f.scenario["machine"]["models"]["gpu"] = "models/nope.json"; }, "scenario.json",
       "/machine/models/gpu", "models/nope.json\": missing or unreadable"},
      {"wrong unit", [](F& f, const D&) { f.gpu["hbm_bandwidth"] = "2TB"; }, "models/gpu.json",
       "/hbm_bandwidth", "unknown unit \"TB\" for a bandwidth"},
      {"negative size", [](F& f, const D&) { f.gpu["hbm_capacity"] = "-80GB"; }, "models/gpu.json",
       "/hbm_capacity", "expected a value > 0"},
      {"zero bandwidth", [](F& f, const D&) { f.link["bandwidth"] = "0GB/s"; }, "models/link.json",
       "/bandwidth", "expected a value > 0"},
      {"missing source", [](F& f, const D&) { f.link["sources"].erase("latency"); }, "models/link.json",
       "/sources", "missing the source of parameter \"latency\""},
      {"model that does not exist", [](F& f, const D&) { f.topology["unit_model"] = "tpu"; },
       "topologies/switch-4.json", "/unit_model", "\"tpu\" is not bound"},
      {"unknown generator", [](F& f, const D&) { f.topology["generator"] = "hypercube"; },
       "topologies/switch-4.json", "/generator", "unknown generator"},
      {"unit speed variation beyond its range",
       [](F& f, const D&) {
         f.scenario["unit_speed_variation"] = {{"cv", 0.9}, {"source", "x"}};
       },
       "scenario.json", "/unit_speed_variation/cv", "expected a number in [0.0, 0.5]"},
      {"per-op jitter beyond its range",
       [](F& f, const D&) {
         f.scenario["unit_speed_variation"] = {{"cv", 0.0}, {"op_cv", -0.1}, {"source", "x"}};
       },
       "scenario.json", "/unit_speed_variation/op_cv", "expected a number in [0.0, 0.5]"},
      {"unit speed variation without a source",
       [](F& f, const D&) {
         f.scenario["unit_speed_variation"] = {{"cv", 0.02}};
       },
       "scenario.json", "/unit_speed_variation", "missing required key \"source\""},
      {"unknown fidelity", [](F& f, const D&) { f.scenario["fidelity"] = "fast"; }, "scenario.json",
       "/fidelity", "expected \"auto\", \"exact\" or \"collapsed\", got \"fast\""},
      {"unknown policy", [](F& f, const D&) { f.scenario["policies"]["collective"] = "butterfly"; },
       "scenario.json", "/policies/collective",
       "(known: ring, recursive, tree, double-binary-tree, in-network, rings, hierarchical, pairwise, auto)"},
      {"unknown collective option",
       [](F& f, const D&) {
         f.scenario["policies"]["collective"] = {{"name", "in-network"}, {"chunks", 4}};
       },
       "scenario.json", "/policies/collective/chunks", "unknown key"},
      {"chunk without a unit",
       [](F& f, const D&) {
         f.scenario["policies"]["collective"] = {{"name", "in-network"}, {"chunk", 4096}};
       },
       "scenario.json", "/policies/collective/chunk", ""},
      {"scenario key misspelt", [](F& f, const D&) { f.scenario["polices"] = f.scenario["policies"]; },
       "scenario.json", "/polices",
       "unknown key (known keys here: kind, name, description, seed, fidelity, machine, workload, policies, "
       "plugins, reliability, cost, circuit_reconfigurations, unit_speed_variation, search)"},
      {"negative seed", [](F& f, const D&) { f.scenario["seed"] = -1; }, "scenario.json", "/seed",
       "expected a whole number in [0, 9223372036854775807], got -1"},
      {"collective option out of range",
       [](F& f, const D&) {
         f.scenario["policies"]["collective"] = {{"name", "ring"}, {"max_chunks", 0}};
       },
       "scenario.json", "/policies/collective/max_chunks", "expected a whole number in [1, 4096], got 0"},
      {"step latency switch not a boolean",
       [](F& f, const D&) {
         f.scenario["policies"]["collective"] = {{"name", "ring"}, {"step_latency", "yes"}};
       },
       "scenario.json", "/policies/collective/step_latency", "expected true or false"},
      {"step latency in a link model without its source",
       [](F& f, const D&) { f.link["step_latency"] = "14us"; }, "models/link.json", "/sources",
       "missing the source of parameter \"step_latency\""},
      {"policy neither a name nor an object",
       [](F& f, const D&) { f.scenario["policies"]["collective"] = 3; }, "scenario.json",
       "/policies/collective", "expected a policy name or an object"},
      {"from-file placement named as a string",
       [](F& f, const D&) { f.scenario["policies"]["placement"] = "from-file"; }, "scenario.json",
       "/policies/placement", "the from-file placement is an object"},
      {"placement map with an unknown key",
       [](F& f, const D& d) {
         f.scenario["policies"]["placement"] = {{"name", "from-file"}, {"map", "map.json"}};
         d.write("map.json", R"({"kind": "placement", "units": ["a"], "colour": "red"})");
       },
       "map.json", "/colour", "unknown key"},
      {"placement map not an array",
       [](F& f, const D& d) {
         f.scenario["policies"]["placement"] = {{"name", "from-file"}, {"map", "map.json"}};
         d.write("map.json", R"({"kind": "placement", "units": "gpu0"})");
       },
       "map.json", "/units", "expected an array of unit names"},
      {"job larger than the machine",
       [](F& f, const D&) {
         f.scenario["workload"]["data_parallel"] = 8;
         f.scenario["workload"]["global_batch"] = 8;
       },
       "scenario.json", "/workload", "needs 8 units"},
      {"batch not divisible", [](F& f, const D&) { f.scenario["workload"]["global_batch"] = 6; },
       "scenario.json", "/workload/global_batch", "not a multiple"},
      {"model does not fit", [](F& f, const D&) { f.gpu["hbm_capacity"] = "100MB"; }, "scenario.json",
       "/workload", "does not fit"},
      {"heads do not divide hidden", [](F& f, const D&) { f.model["heads"] = 7; }, "workloads/small.json",
       "/heads", "not divisible"},
      {"wrong type", [](F& f, const D&) { f.model["layers"] = "2"; }, "workloads/small.json", "/layers",
       "expected a whole number, got string"},
      {"not an object", [](F& f, const D&) { f.scenario["machine"] = 3; }, "scenario.json", "/machine",
       "expected a JSON object"},
  };
  for (const auto& c : cases) {
    std::string what = c.what;
    CAPTURE(what);
    auto f = failure_after(c.mutate);
    CAPTURE(f.message);
    CHECK(f.file == std::string(c.file));
    CHECK(f.path == std::string(c.path));
    CHECK(f.message.find(c.says) != std::string::npos);
    CHECK(f.message.find('\n') == std::string::npos);  // one line
  }
}

TEST_CASE("load limits bound the machine and the trace a scenario may ask for, before building them") {
  test::TempDir dir;
  test::ScenarioFiles files;  // 4 units on one switch: 5 nodes; a 2-layer model, data parallel: 9 ops
  const std::string path = files.write(dir);
  core::DiskFileSource disk;
  const scenario::Catalog catalog;
  auto error_with = [&](scenario::LoadLimits limits) {
    try {
      scenario::ScenarioLoader(disk, catalog, limits).load(path);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(error_with({5, 9}) == "(no error)");
  CHECK(error_with({4, 9}) ==
        dir.file("topologies/switch-4.json") +
            ": the machine would have more than 4 nodes (units, switches and memory pools)");
  CHECK(error_with({5, 8}) ==
        path +
            ": /workload: the generated trace would hold 9 ops, more than 8: small has 2 "
            "layers, 1 micro-batch per iteration");
}

TEST_CASE("the memory per rank is stated in bytes, as numbers whose terms add up to the total") {
  core::DiskFileSource disk;
  const auto s = scenario::ScenarioLoader(disk).load(ZS_SOURCE_DIR "/scenarios/hgx-3d-parallel.json");
  const nlohmann::json& rows = s.resolved.at("derived").at("workload").at("memory_per_rank");
  REQUIRE(rows.size() == s.trace.roles.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& f = *s.trace.roles[i].memory;
    const auto& row = rows[i];
    CHECK(row.at("role") == s.trace.roles[i].name);
    CHECK(row.at("weights_bytes").get<double>() == f.weights.value());
    CHECK(row.at("activations_bytes").get<double>() == f.activations.value());
    double terms = 0;
    for (const auto& item : row.items()) {
      const std::string key = item.key();  // a named variable: clang 14 cannot capture a binding in INFO
      if (key == "role") continue;
      INFO(key);
      CHECK(key.ends_with("_bytes"));
      CHECK(item.value().is_number());
      if (key != "total_bytes" && key != "checkpoint_bytes") terms += item.value().get<double>();
    }
    CHECK(terms == doctest::Approx(row.at("total_bytes").get<double>()).epsilon(1e-12));
  }
}
