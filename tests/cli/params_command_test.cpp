// zettasim params: the parameter types, one type's table, and docs/parameters.md kept current.
#include <doctest/doctest.h>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("docs/parameters.md is what zettasim params --markdown prints (regenerate it when this fails)") {
  auto r = test::run_cli({"params", "--markdown"});
  REQUIRE(r.code == 0);
  CHECK(r.out == test::read_text(test::source_file("docs/parameters.md")));
}

TEST_CASE("zettasim params lists the types, and prints one type's table with units, defaults and ranges") {
  auto list = test::run_cli({"params"});
  REQUIRE(list.code == 0);
  for (const char* type : {"compute-unit",
                           "link",
                           "switch",
                           "memory-pool",
                           "optical-circuit-switch",
                           "file-system",
                           "failure-rates",
                           "failure-rates.component",
                           "topology",
                           "topology.fat-tree",
                           "topology.fat-tree.level",
                           "topology.disaggregated.optical-core",
                           "transformer",
                           "transformer.moe",
                           "workload",
                           "workload.ideal-data-parallel",
                           "workload.megatron",
                           "routing",
                           "expert-histogram",
                           "scenario",
                           "machine",
                           "policies",
                           "policies.collective",
                           "reliability",
                           "reliability.checkpoint",
                           "reliability.degradation",
                           "machine-file",
                           "recorded-workload",
                           "placement-map"})
    CHECK(list.out.find(std::string("\n  ") + type + " ") != std::string::npos);

  auto link = test::run_cli({"params", "link"});
  REQUIRE(link.code == 0);
  CHECK(link.out.find("bandwidth") != std::string::npos);
  CHECK(link.out.find("B/s (\"400Gb/s\", \"3.35TB/s\")") != std::string::npos);
  CHECK(link.out.find("[0.01, 1.0]") != std::string::npos);  // efficiency's range
  CHECK(link.out.find("1.0 ") != std::string::npos);         // and its default

  // A scenario section: defaults as a file writes them, choices listed.
  auto reliability = test::run_cli({"params", "reliability"});
  REQUIRE(reliability.code == 0);
  CHECK(reliability.out.find("\"600s\"") != std::string::npos);  // detection and restart: 10 min
  auto megatron = test::run_cli({"params", "workload.megatron"});
  REQUIRE(megatron.code == 0);
  CHECK(megatron.out.find("one of \"gpipe\", \"1f1b\", \"interleaved-1f1b\"") != std::string::npos);
  CHECK(megatron.out.find("object: a routing") != std::string::npos);
}

TEST_CASE("zettasim params of an unknown type: one line naming the known ones, exit 2") {
  auto r = test::run_cli({"params", "lnk"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("zettasim: error: zettasim params: unknown type \"lnk\" (known: compute-unit, link,",
                    0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);
  r = test::run_cli({"params", "lnk", "--markdown"});  // the Markdown form refuses it too
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  r = test::run_cli({"params", "link", "--markdown"});  // and gives the one type's table
  CHECK(r.code == 0);
  CHECK(r.out.find("## `link`") != std::string::npos);
  CHECK(r.out.find("## `compute-unit`") == std::string::npos);
}
