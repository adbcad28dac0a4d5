// `zettasim trace gen` and `trace inspect`: files written, totals printed, bad plans exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "chakra/et_records.hpp"
#include "et_def.pb.h"
#include "support/chakra_files.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

using test::source_file;

TEST_CASE("trace gen writes a model's trace under a plan, trace inspect reads it back") {
  test::TempDir dir;
  auto r =
      test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--parallel",
                     "data_parallel=2,tensor_parallel=2,pipeline_parallel=2,micro_batch=1,global_batch=8,"
                     "sequence_parallel=true,zero_stage=1,recompute=full",
                     "--out", dir.file("t.trace.json")});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("8 ranks, 2 roles") != std::string::npos);
  auto i = test::run_cli({"trace", "inspect", dir.file("t.trace.json")});
  CHECK(i.code == 0);
  CHECK(i.out.find("pp 2 x dp 2 x tp 2 = 8 ranks") != std::string::npos);
  CHECK(i.out.find("tp reduce-scatter") != std::string::npos);
  CHECK(i.out.find("dp all-gather") != std::string::npos);
  // Full recomputation: executed FLOPs are 4/3 of the model's on the layers (not quite on the logits).
  CHECK(i.out.find("ratio 1.3") != std::string::npos);
  CHECK(i.out.find("memory per rank") != std::string::npos);
}

TEST_CASE("trace gen writes the CBOR form for a .cbor file, inspect reads it like the JSON one") {
  test::TempDir dir;
  for (const char* name : {"t.json", "t.cbor"})
    REQUIRE(test::run_cli(
                {"trace", "gen", source_file("scenarios/hgx-3d-parallel.json"), "--out", dir.file(name)})
                .code == 0);
  CHECK(fs::file_size(dir.file("t.cbor")) < fs::file_size(dir.file("t.json")));
  auto a = test::run_cli({"trace", "inspect", dir.file("t.json")});
  auto b = test::run_cli({"trace", "inspect", dir.file("t.cbor")});
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
}

TEST_CASE("trace inspect on a shipped scenario: the moe-10t plan on 524,288 units fits its units") {
  auto i = test::run_cli({"trace", "inspect", source_file("scenarios/moe-10t-512k.json")});
  CHECK(i.code == 0);
  CHECK(i.out.find("pp 64 x ep 1024 x tp 8 = 524288 ranks") != std::string::npos);
  CHECK(i.out.find("ep all-to-all") != std::string::npos);
}

TEST_CASE("bad plans and files: one line, exit code 2") {
  auto r = test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--parallel",
                          "tensor_parallel=3,micro_batch=1,global_batch=8"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: --parallel: /tensor_parallel: tensor_parallel 3 does not divide the attention "
        "heads (16)\n");
  r = test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--parallel",
                     "micro_batch=1,global_batch=8,colour=red"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--parallel: /colour: ") != std::string::npos);
  r = test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--parallel", "oops"});
  CHECK(r.code == 2);
  r = test::run_cli({"trace", "inspect", source_file("models/h100-sxm.json")});
  CHECK(r.code == 2);
  CHECK(r.err.find("/kind: expected a \"trace\" or a \"scenario\"") != std::string::npos);
}

TEST_CASE("zettasim place: linear keeps tensor-parallel groups in a rack, random scatters them") {
  auto r = test::run_cli({"place", source_file("scenarios/moe-ep-64.json"), "--policy", "linear", "--policy",
                          "random", "--policy", "topology-aware"});
  CHECK(r.code == 0);
  const auto linear = r.out.find("placement linear"), random = r.out.find("placement random");
  REQUIRE(linear != std::string::npos);
  REQUIRE(random != std::string::npos);
  // Through the rack's scale-up switch: 2 links.
  CHECK(r.out.substr(linear, random - linear).find("tp            384 GiB             2.00") !=
        std::string::npos);
  const auto aware = r.out.find("placement topology-aware");
  REQUIRE(aware != std::string::npos);
  CHECK(r.out.substr(random, aware - random).find("tp            384 GiB             2.00") ==
        std::string::npos);
  // The busiest link direction: with linear placement the optical circuits between pod spines carry the
  // expert all-to-all and pipeline sends that leave a pod (pods 0 and 1, one stage's expert group, have
  // no circuit of their own: their traffic splits over the two paths through pods 2 and 3); random
  // placement sends more of everything across them.
  CHECK(r.out.substr(linear, random - linear).find("max link load: pod1-spine -> pod3-spine, 36.43 GiB") !=
        std::string::npos);
  CHECK(r.out.substr(random, aware - random).find("max link load: pod") != std::string::npos);
  // Its layouts with fewer hop-bytes (the locality order: 4.6% fewer) load the busiest circuit as much.
  CHECK(r.out.substr(aware).find("layout: kept the linear layout (axes pp > ep > tp on the topology's unit "
                                 "order): no layout has both 2% fewer hop-bytes") != std::string::npos);
  auto bad = test::run_cli({"place", source_file("scenarios/moe-ep-64.json"), "--policy", "scotch"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--policy: unknown placement policy \"scotch\"") != std::string::npos);
}

TEST_CASE("trace export-chakra writes one file per rank, a scenario replays them to the same iteration") {
  test::TempDir dir;
  auto e = test::run_cli(
      {"trace", "export-chakra", source_file("scenarios/hgx-3d-parallel.json"), "--out", dir.file("et")});
  REQUIRE(e.code == 0);
  CHECK(e.out.find("8 Chakra files written") != std::string::npos);
  for (int r = 0; r < 8; ++r)
    CHECK(fs::exists(dir.path() / "et" / ("gpt3-1.3b-dp2-pp2-tp2." + std::to_string(r) + ".et")));
  CHECK_FALSE(fs::exists(dir.path() / "et" / "gpt3-1.3b-dp2-pp2-tp2.8.et"));

  // trace gen on the prefix imports it; inspect reports what the import restored.
  const std::string prefix = dir.file("et/gpt3-1.3b-dp2-pp2-tp2");
  auto i = test::run_cli({"trace", "inspect", prefix});
  CHECK(i.code == 0);
  CHECK(i.out.find("written by zettasim") != std::string::npos);
  CHECK(i.out.find("pp 2 x dp 2 x tp 2 = 8 ranks") != std::string::npos);
  auto g = test::run_cli({"trace", "gen", prefix, "--out", dir.file("imported.trace.json")});
  CHECK(g.code == 0);

  // The same machine and policies, with the workload taken from the Chakra files, from the imported trace
  // file, and generated: the same iteration time to the bit.
  const std::string machine = source_file("topologies/hgx-h100-8.machine.json");
  auto scenario = [&](const std::string& name, const nlohmann::json& workload) {
    nlohmann::json s = {{"kind", "scenario"},
                        {"name", name},
                        {"machine", machine},
                        {"workload", workload},
                        {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
    return dir.write(name + ".json", s.dump());
  };
  double times[3];
  const std::string files[3] = {source_file("scenarios/hgx-3d-parallel.json"),
                                scenario("from-chakra", {{"chakra", "et/gpt3-1.3b-dp2-pp2-tp2"}}),
                                scenario("from-trace", {{"trace", "imported.trace.json"}})};
  for (int k = 0; k < 3; ++k) {
    auto r = test::run_cli({"run", files[k], "--out", dir.file("r" + std::to_string(k)), "--quiet"});
    REQUIRE(r.code == 0);
    times[k] = nlohmann::json::parse(
        test::read_text(dir.path() / ("r" + std::to_string(k)) / "summary.json"))["iteration_time_s"];
  }
  CHECK(times[0] > 0.2);
  CHECK(times[1] == times[0]);
  CHECK(times[2] == times[0]);
  CHECK(test::read_text(dir.path() / "r1" / "report.txt").find("Chakra trace") != std::string::npos);
}

TEST_CASE("export-chakra of a scenario gives each compute node its time on the unit, groups of all as 0") {
  // The default scenario (data parallelism 8 on one HGX H100, one group of every rank) with an H100 that
  // computes beside communication at full speed, so that the run's compute time is the ops' own.
  test::TempDir dir;
  auto gpu = nlohmann::json::parse(test::read_text(source_file("models/h100-sxm.json")));
  gpu["overlap_slowdown"] = 0.0;
  gpu["sources"]["overlap_slowdown"] = "assumption of this test: no slowdown";
  dir.write("gpu.json", gpu.dump());
  auto doc = nlohmann::json::parse(test::read_text(source_file("scenarios/default.json")));
  doc["machine"]["topology"] = source_file("topologies/hgx-h100-8.json");
  doc["machine"]["models"] = {{"gpu", "gpu.json"},
                              {"nvlink", source_file("models/nvlink4.json")},
                              {"nvswitch", source_file("models/nvswitch-gen3.json")}};
  doc["workload"]["model"] = source_file("workloads/gpt3-1.3b.json");
  const std::string scenario = dir.write("default.json", doc.dump());
  REQUIRE(test::run_cli({"trace", "export-chakra", scenario, "--out", dir.file("et")}).code == 0);
  REQUIRE(test::run_cli({"run", scenario, "--out", dir.file("r"), "--quiet"}).code == 0);
  const auto summary = nlohmann::json::parse(test::read_text(dir.path() / "r" / "summary.json"));
  const std::string prefix = dir.file("et/gpt3-1.3b-dp8-pp1-tp1");
  CHECK(test::read_text(prefix + ".json") == "{}\n");  // no numbered group: ASTRA-sim needs no group file
  const std::string rank0 = test::read_text(prefix + ".0.et");  // the reader holds a view of it
  chakra::RecordReader reader(rank0, "gpt3-1.3b-dp8-pp1-tp1.0.et");
  ChakraProtoMsg::GlobalMetadata meta;
  REQUIRE(reader.next(meta, "/metadata"));
  ChakraProtoMsg::Node node;
  double compute_us = 0;
  size_t computes = 0;
  while (reader.next(node, "/nodes")) {
    if (node.type() == ChakraProtoMsg::COMP_NODE) {
      CHECK(node.duration_micros() > 0);
      compute_us += double(node.duration_micros());
      ++computes;
    }
    for (const auto& a : node.attr())
      if (a.name() == "pg_name") CHECK(a.string_val() == "0");
    node.Clear();
  }
  REQUIRE(computes > 0);
  // Each node's time rounded to whole microseconds: the sum within half a microsecond per node of the run's
  // compute time on rank 0.
  const double run_us = summary.at("critical_rank_breakdown_s").at("compute").get<double>() * 1e6;
  CHECK(std::abs(compute_us - run_us) <= 0.5 * double(computes) + 1e-6 * run_us);
}

TEST_CASE("bad Chakra and recorded-trace input: one line, exit code 2, nothing written") {
  test::TempDir dir;
  auto missing = test::run_cli({"trace", "inspect", dir.file("nothing")});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("nothing: cannot read file") != std::string::npos);

  dir.write("job.0.et", "\xff\xff\xff");
  auto garbage = test::run_cli({"trace", "inspect", dir.file("job")});
  CHECK(garbage.code == 2);
  CHECK(garbage.err.find("job.0.et: /metadata: truncated record length") != std::string::npos);

  auto big = test::run_cli(
      {"trace", "export-chakra", source_file("scenarios/moe-10t-512k.json"), "--out", dir.file("big")});
  CHECK(big.code == 2);
  CHECK(big.err.find("over the export limit of 65536") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "big"));

  const std::string machine = source_file("topologies/hgx-h100-8.machine.json");
  nlohmann::json both = {{"kind", "scenario"},
                         {"name", "both"},
                         {"machine", machine},
                         {"workload", {{"trace", "a.json"}, {"chakra", "b"}}},
                         {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
  auto r = test::run_cli({"run", dir.write("both.json", both.dump()), "--out", dir.file("out")});
  CHECK(r.code == 2);
  CHECK(r.err.find("both.json: /workload: a workload is one of") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path() / "out"));

  nlohmann::json extra = both;
  extra["workload"] = {{"trace", "a.json"}, {"micro_batch", 2}};
  auto x = test::run_cli({"run", dir.write("extra.json", extra.dump()), "--out", dir.file("out")});
  CHECK(x.code == 2);
  CHECK(x.err.find("extra.json: /workload/micro_batch") != std::string::npos);
}

TEST_CASE("export-chakra replaces only its own earlier export, and refuses a trace name unsafe for files") {
  test::TempDir dir;
  const std::string scenario = source_file("scenarios/hgx-3d-parallel.json");
  dir.write("notes/todo.txt", "precious");
  auto foreign = test::run_cli({"trace", "export-chakra", scenario, "--out", dir.file("notes")});
  CHECK(foreign.code == 2);
  CHECK(foreign.err.find("is a folder that zettasim did not write") != std::string::npos);
  CHECK(test::read_text(dir.path() / "notes/todo.txt") == "precious");
  CHECK(test::run_cli({"trace", "export-chakra", scenario, "--out", dir.file("et")}).code == 0);
  CHECK(test::run_cli({"trace", "export-chakra", scenario, "--out", dir.file("et")}).code == 0);

  REQUIRE(test::run_cli({"trace", "gen", scenario, "--out", dir.file("t.trace.json")}).code == 0);
  auto trace = nlohmann::json::parse(test::read_text(dir.path() / "t.trace.json"));
  trace["name"] = "../../escape";
  const std::string renamed = dir.write("renamed.trace.json", trace.dump());
  auto unsafe = test::run_cli({"trace", "export-chakra", renamed, "--out", dir.file("et2")});
  CHECK(unsafe.code == 2);
  CHECK(unsafe.err == "zettasim: error: " + renamed +
                          ": the trace name \"../../escape\" is used for the Chakra file names and must be"
                          " 1 to 128 characters of A-Z a-z 0-9 . _ -, not starting with '.' or '-' (it names "
                          "a file or folder), "
                          "got a name starting with '.'\n");
  CHECK_FALSE(fs::exists(dir.path() / "et2"));
}

TEST_CASE("a Chakra file with invalid UTF-8 or zettasim metadata of the wrong shape: one line, exit 2") {
  test::TempDir dir;
  REQUIRE(test::run_cli({"trace", "export-chakra", source_file("scenarios/hgx-3d-parallel.json"), "--out",
                         dir.file("et")})
              .code == 0);
  const std::string prefix = dir.file("et/gpt3-1.3b-dp2-pp2-tp2");
  const fs::path rank0 = prefix + ".0.et";
  const std::string original = test::read_text(rank0);
  auto patched = [&](const std::string& from, const std::string& to) {
    REQUIRE(from.size() == to.size());  // the record lengths stay valid
    std::string bytes = original;
    const auto at = bytes.find(from);
    REQUIRE(at != std::string::npos);
    bytes.replace(at, from.size(), to);
    std::ofstream(rank0, std::ios::binary | std::ios::trunc) << bytes;
    return test::run_cli({"trace", "inspect", prefix});
  };
  auto utf8 = patched("mb0/layer0/attention/forward", "mb0/layer0/attention/forwar\xff");
  CHECK(utf8.code == 2);
  CHECK(utf8.err == "zettasim: error: " + rank0.string() +
                        ": /nodes/0: record does not parse as a Chakra "
                        "ChakraProtoMsg.Node\n");
  const auto role_start = original.find("{\"memory\"");
  REQUIRE(role_start != std::string::npos);
  const std::string role =
      original.substr(role_start, original.find('}', original.find('}', role_start) + 1) + 1 - role_start);
  auto shape = patched(role, "1" + std::string(role.size() - 1, ' '));
  CHECK(shape.code == 2);
  CHECK(std::count(shape.err.begin(), shape.err.end(), '\n') == 1);
  CHECK(shape.err.find("/roles/0") != std::string::npos);
}

TEST_CASE("one rank's Chakra file where a trace prefix is expected: exit 2 naming the prefix and the files") {
  test::TempDir dir;
  REQUIRE(test::run_cli({"trace", "export-chakra", source_file("scenarios/hgx-3d-parallel.json"), "--out",
                         dir.file("et")})
              .code == 0);
  const std::string prefix = dir.file("et/gpt3-1.3b-dp2-pp2-tp2");
  for (const char* command : {"inspect", "gen"}) {
    CAPTURE(command);
    auto r = test::run_cli({"trace", command, prefix + ".3.et"});
    CHECK(r.code == 2);
    CHECK(r.err == "zettasim: error: " + prefix +
                       ".3.et: this is one rank's file of a Chakra trace: name "
                       "the trace by its prefix \"" +
                       prefix + "\" (" + prefix + ".0.et to .7.et found)\n");
  }
}

TEST_CASE("a Chakra trace on process groups: --comm-groups and a scenario's comm_groups, exit 2 without") {
  test::TempDir dir;
  for (uint32_t r = 0; r < 4; ++r)
    test::write_chakra_rank(dir, "pg", r,
                            {test::chakra_all_reduce(1, std::to_string(r / 2), 1 << 20, 0),
                             test::chakra_all_reduce(2, std::to_string(2 + r % 2), 1 << 24, 1)});
  const std::string groups =
      dir.write("groups.json", R"({"0": [0, 1], "1": [2, 3], "2": [0, 2], "3": [1, 3]})");
  const std::string prefix = dir.file("pg");
  const auto without = test::run_cli({"trace", "inspect", prefix});
  CHECK(without.code == 2);
  CHECK(without.err.find("process group \"2\": its members are not known") != std::string::npos);
  const auto inspect = test::run_cli({"trace", "inspect", prefix, "--comm-groups", groups});
  CHECK(inspect.code == 0);
  CHECK(inspect.out.find("pg2 2 x pg0 2 = 4 ranks") != std::string::npos);
  CHECK(inspect.out.find("imported: Chakra 0.0.4, 4 ranks, 8 nodes") != std::string::npos);
  CHECK(inspect.out.find("; process groups from " + groups) != std::string::npos);
  CHECK(inspect.out.find("model FLOPs unknown: the trace does not state them") != std::string::npos);
  CHECK(inspect.out.find("tokens per iteration  unknown") != std::string::npos);
  // Two tensor-parallel pairs: two calls, one per group, four summed over ranks.
  CHECK(inspect.out.find("pg0 all-reduce") != std::string::npos);
  CHECK(inspect.out.find("in 2 calls (4 rank-calls)") != std::string::npos);
  CHECK(test::run_cli({"trace", "gen", prefix, "--comm-groups", groups, "--out", dir.file("t.json")}).code ==
        0);
  const auto misplaced =
      test::run_cli({"trace", "inspect", source_file("scenarios/default.json"), "--comm-groups", groups});
  CHECK(misplaced.code == 2);
  CHECK(misplaced.err.find("a communicator-group file goes with a Chakra trace") != std::string::npos);

  auto scenario = [&](const std::string& name, const nlohmann::json& workload) {
    nlohmann::json s = {{"kind", "scenario"},
                        {"name", name},
                        {"machine", source_file("topologies/hgx-h100-8.machine.json")},
                        {"workload", workload},
                        {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
    return dir.write(name + ".json", s.dump());
  };
  const auto run =
      test::run_cli({"run", scenario("with-groups", {{"chakra", "pg"}, {"comm_groups", "groups.json"}}),
                     "--out", dir.file("r"), "--quiet"});
  CAPTURE(run.err);
  REQUIRE(run.code == 0);
  CHECK(test::read_text(dir.path() / "r" / "report.txt").find("on pg2") != std::string::npos);
  const auto config = nlohmann::json::parse(test::read_text(dir.path() / "r" / "config.json"));
  CHECK(config["workload"]["comm_groups"] == "groups.json");  // as the file writes it
  CHECK(config["derived"]["workload"]["comm_groups_file"] == groups);
  const auto wrong =
      test::run_cli({"run", scenario("wrong", {{"trace", "t.json"}, {"comm_groups", "groups.json"}}), "--out",
                     dir.file("w")});
  CHECK(wrong.code == 2);
  CHECK(wrong.err.find("/workload/comm_groups: goes with \"chakra\"") != std::string::npos);
}

TEST_CASE("process groups that are not the axes of a mesh: inspect says so, exact fidelity runs them") {
  test::TempDir dir;
  for (uint32_t r = 0; r < 4; ++r) {
    std::vector<ChakraProtoMsg::Node> nodes{test::chakra_all_reduce(1, std::to_string(r / 2), 1 << 20, 0)};
    if (r == 0 || r == 3) nodes.push_back(test::chakra_all_reduce(2, "9", 1 << 24, 1));
    test::write_chakra_rank(dir, "ends", r, nodes);
  }
  const std::string groups = dir.write("groups.json", R"({"0": [0, 1], "1": [2, 3], "9": [0, 3]})");
  const auto inspect = test::run_cli({"trace", "inspect", dir.file("ends"), "--comm-groups", groups});
  CAPTURE(inspect.err);
  REQUIRE(inspect.code == 0);
  CHECK(
      inspect.out.find("; groups \"9\" (the groups shaped like \"9\" leave rank 1 out) are not the axes of a "
                       "mesh: replayed as listed groups, exact fidelity only") != std::string::npos);
  CHECK(inspect.out.find("communicator pg9      1 listed group: 0 3") != std::string::npos);
  CHECK(inspect.out.find("pg9 all-reduce") != std::string::npos);
  nlohmann::json s = {{"kind", "scenario"},
                      {"name", "ends"},
                      {"machine", source_file("topologies/hgx-h100-8.machine.json")},
                      {"workload", {{"chakra", "ends"}, {"comm_groups", "groups.json"}}},
                      {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
  const std::string scenario = dir.write("ends.json", s.dump());
  const auto run = test::run_cli({"run", scenario, "--out", dir.file("r"), "--quiet"});
  CAPTURE(run.err);
  REQUIRE(run.code == 0);
  const auto summary = nlohmann::json::parse(test::read_text(dir.path() / "r" / "summary.json"));
  CHECK(summary["fidelity"] == "exact");
  CHECK(summary["fidelity_reason"].get<std::string>().find("communicators \"pg9\" list their groups") !=
        std::string::npos);
  const auto collapsed = test::run_cli({"run", scenario, "--out", dir.file("c"), "--fidelity", "collapsed"});
  CHECK(collapsed.code == 2);
  CHECK(collapsed.err.find("collapsed fidelity needs communicators over mesh axes") != std::string::npos);
  CHECK(std::count(collapsed.err.begin(), collapsed.err.end(), '\n') == 1);
}

TEST_CASE("trace gen --megatron-args: the plan from a Megatron-LM argument file is the one its keys give") {
  test::TempDir dir;
  {
    std::ofstream args(dir.file("job.args"));
    args << "# gpt3-1.3b as pretrain_gpt.py takes it\n"
            "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \\\n"
            "  --sequence-parallel --use-distributed-optimizer --recompute-granularity full \\\n"
            "  --recompute-method uniform --micro-batch-size 1 --global-batch-size 8 \\\n"
            "  --num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 --bf16 \\\n"
            "  --lr 2.0e-4 --data-path /data/pile\n";
  }
  auto a = test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--megatron-args",
                          dir.file("job.args"), "--parallel", "data_parallel=2", "--out",
                          dir.file("a.trace.json")});
  CHECK(a.code == 0);
  auto b =
      test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--parallel",
                     "data_parallel=2,tensor_parallel=2,pipeline_parallel=2,micro_batch=1,global_batch=8,"
                     "sequence_parallel=true,zero_stage=1,recompute=full",
                     "--out", dir.file("b.trace.json")});
  CHECK(b.code == 0);
  auto ia = test::run_cli({"trace", "inspect", dir.file("a.trace.json")});
  auto ib = test::run_cli({"trace", "inspect", dir.file("b.trace.json")});
  CHECK(ia.code == 0);
  CHECK(ia.out == ib.out);
  CHECK(ia.out.find("pp 2 x dp 2 x tp 2 = 8 ranks") != std::string::npos);
  {
    std::ofstream args(dir.file("bad.args"));
    args << "--tensor-model-parallel-size 2 --use-megatron-fsdp\n";
  }
  auto bad = test::run_cli({"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--megatron-args",
                            dir.file("bad.args"), "--out", dir.file("c.trace.json")});
  CHECK(bad.code == 2);
  CHECK(bad.err.find(
            "/megatron_arguments: --use-megatron-fsdp is not modelled: Megatron-FSDP; set zero_stage 3") !=
        std::string::npos);
  CHECK(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
  auto missing = test::run_cli(
      {"trace", "gen", source_file("workloads/gpt3-1.3b.json"), "--megatron-args", dir.file("none.args")});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("none.args: cannot read file") != std::string::npos);
  CHECK(!fs::exists(dir.file("c.trace.json")));
}
