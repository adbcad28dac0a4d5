// `zettasim trace gen` and `trace inspect`: files written, totals printed, bad plans exit 2.
#include <doctest/doctest.h>

#include <filesystem>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {
std::string source(const char* rel) {
  return (fs::path(ZS_SOURCE_DIR) / rel).string();
}
}  // namespace

TEST_CASE("trace gen writes a model's trace under a plan; trace inspect reads it back") {
  test::TempDir dir;
  auto r =
      test::run_cli({"trace", "gen", source("workloads/gpt3-1.3b.json"), "--parallel",
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

TEST_CASE("trace gen writes the CBOR form for a .cbor file; inspect reads it like the JSON one") {
  test::TempDir dir;
  for (const char* name : {"t.json", "t.cbor"})
    REQUIRE(test::run_cli({"trace", "gen", source("scenarios/hgx-3d-parallel.json"), "--out", dir.file(name)})
                .code == 0);
  CHECK(fs::file_size(dir.file("t.cbor")) < fs::file_size(dir.file("t.json")));
  auto a = test::run_cli({"trace", "inspect", dir.file("t.json")});
  auto b = test::run_cli({"trace", "inspect", dir.file("t.cbor")});
  CHECK(a.code == 0);
  CHECK(a.out == b.out);
}

TEST_CASE("trace inspect on a shipped scenario: the moe-10t plan on 524,288 units fits its units") {
  auto i = test::run_cli({"trace", "inspect", source("scenarios/moe-10t-512k.json")});
  CHECK(i.code == 0);
  CHECK(i.out.find("pp 64 x ep 1024 x tp 8 = 524288 ranks") != std::string::npos);
  CHECK(i.out.find("ep all-to-all") != std::string::npos);
}

TEST_CASE("bad plans and files: one line, exit code 2") {
  auto r = test::run_cli({"trace", "gen", source("workloads/gpt3-1.3b.json"), "--parallel",
                          "tensor_parallel=3,micro_batch=1,global_batch=8"});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: --parallel: /tensor_parallel: tensor_parallel 3 does not divide the attention "
        "heads (16)\n");
  r = test::run_cli({"trace", "gen", source("workloads/gpt3-1.3b.json"), "--parallel",
                     "micro_batch=1,global_batch=8,colour=red"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--parallel: /colour: ") != std::string::npos);
  r = test::run_cli({"trace", "gen", source("workloads/gpt3-1.3b.json"), "--parallel", "oops"});
  CHECK(r.code == 2);
  r = test::run_cli({"trace", "inspect", source("models/h100-sxm.json")});
  CHECK(r.code == 2);
  CHECK(r.err.find("/kind: expected a \"trace\" or a \"scenario\"") != std::string::npos);
}

TEST_CASE("zettasim place: linear keeps tensor-parallel groups in a rack; random scatters them") {
  auto r = test::run_cli(
      {"place", source("scenarios/moe-ep-64.json"), "--policy", "linear", "--policy", "random"});
  CHECK(r.code == 0);
  const auto linear = r.out.find("placement linear"), random = r.out.find("placement random");
  REQUIRE(linear != std::string::npos);
  REQUIRE(random != std::string::npos);
  // Through the rack's scale-up switch: 2 links.
  CHECK(r.out.substr(linear, random - linear).find("tp            384 GiB             2.00") !=
        std::string::npos);
  CHECK(r.out.substr(random).find("tp            384 GiB             2.00") == std::string::npos);
  auto bad = test::run_cli({"place", source("scenarios/moe-ep-64.json"), "--policy", "scotch"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--policy: unknown placement policy \"scotch\"") != std::string::npos);
}
