// `zettasim topo`: every shipped machine loads and summarizes; graphs are written; bad files exit 2.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

TEST_CASE("every shipped machine file and scenario summarizes") {
  int seen = 0;
  for (const char* folder : {"topologies", "scenarios"})
    for (const auto& entry : fs::directory_iterator(fs::path(ZS_SOURCE_DIR) / folder)) {
      if (!entry.is_regular_file()) continue;
      std::string name = entry.path().filename().string();
      if (folder == std::string("topologies") && name.find(".machine.json") == std::string::npos) continue;
      CAPTURE(name);
      auto r = test::run_cli({"topo", entry.path().string(), "--diameter-sources", "64"});
      CHECK(r.code == 0);
      CHECK(r.err.empty());
      CHECK(r.out.find("bisection bandwidth") != std::string::npos);
      ++seen;
    }
  CHECK(seen >= 6);
}

TEST_CASE("the Llama 3 network: 1:7 above 3072-GPU pods halves to n/2 x 50 GB/s / 7") {
  auto r = test::run_cli({"topo", std::string(ZS_SOURCE_DIR) + "/topologies/llama3-24k.machine.json",
                          "--diameter-sources", "16"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("units                 24576 (h100-sxm: 24576)") != std::string::npos);
  // 1536 ToRs, 8 pods, 1 top and 3072 servers' NVSwitches
  CHECK(r.out.find("switches              4617") != std::string::npos);
  CHECK(r.out.find("87.77 TB/s") != std::string::npos);                  // 12288 x 50 GB/s / 7
  CHECK(r.out.find("diameter              6 links") != std::string::npos);
}

TEST_CASE("graphs are written as DOT or GraphML") {
  test::TempDir dir;
  std::string machine = std::string(ZS_SOURCE_DIR) + "/topologies/hgx-h100-8.machine.json";
  REQUIRE(test::run_cli({"topo", machine, "--graph", dir.file("g.dot")}).code == 0);
  std::string dot = test::read_text(dir.file("g.dot"));
  CHECK(dot.rfind("// written by zettasim ", 0) == 0);  // the marker that lets a later run replace it
  CHECK(dot.find("\ngraph \"hgx-h100-8\" {\n") != std::string::npos);
  CHECK(dot.find("n1 -- n0") != std::string::npos);  // unit 0 (node 1) to the switch (node 0)
  REQUIRE(test::run_cli({"topo", machine, "--graph", dir.file("g.graphml")}).code == 0);
  std::string xml = test::read_text(dir.file("g.graphml"));
  size_t edges = 0;
  for (size_t p = xml.find("<edge "); p != std::string::npos; p = xml.find("<edge ", p + 1)) ++edges;
  CHECK(edges == 8);
  // Well-formed XML, marker comment included (a comment may not hold "--").
  CHECK(
      std::system(("/usr/bin/python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' " +
                   dir.file("g.graphml"))
                      .c_str()) == 0);
  auto bad = test::run_cli({"topo", machine, "--graph", dir.file("g.png")});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("must end in .dot or .graphml") != std::string::npos);
}

TEST_CASE("a broken topology file exits 2 with its file and JSON path") {
  test::TempDir dir;
  dir.write("t.json", R"({"kind": "topology", "name": "t", "generator": "graph",
    "nodes": [{"name": "a", "kind": "unit", "model": "gpu"}],
    "links": [{"a": "a", "b": "ghost", "model": "nvlink"}]})");
  std::string models = std::string(ZS_SOURCE_DIR) + "/models/";
  dir.write("m.json", R"({"kind": "machine", "topology": "t.json", "models": {"gpu": ")" + models +
                          R"(h100-sxm.json", "nvlink": ")" + models + R"(nvlink4.json"}})");
  auto r = test::run_cli({"topo", dir.file("m.json")});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: " + dir.file("t.json") + ": /links/0/b: dangling link: no node named \"ghost\"\n");
}
