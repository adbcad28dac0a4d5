// topology.conf: the switch tree Slurm's tree plugin reads, and one error line for each way it can be wrong.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "inventory/slurm_topology.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

const char* kThreeLevels = R"(# two pods of two leaves, 4 nodes per leaf
SwitchName=leaf1 Nodes=gpu[001-004]
switchname=leaf2 nodes=gpu[005-008]
SwitchName=leaf3 Nodes=gpu[009-012] LinkSpeed=400
SwitchName=leaf4 \
    Nodes=gpu[013-016]
SwitchName=pod1 Switches=leaf[1-2]
SwitchName=pod2 Switches=leaf[3-4]
SwitchName=spine Switches=pod[1-2]   # the top
)";

std::string parse_error(const std::string& text) {
  return test::input_error_of([&] { inventory::SlurmTopology::parse(text, "topology.conf"); });
}

}  // namespace

TEST_CASE("a three-level tree: each node's leaf, each switch's level, the root") {
  const auto t = inventory::SlurmTopology::parse(kThreeLevels, "topology.conf");
  REQUIRE(t.switches.size() == 7);
  CHECK(t.switches[1].name == "leaf2");
  CHECK(t.switches[1].nodes.size() == 4);
  CHECK(t.switches[2].link_speed == "400");
  CHECK(t.switches[3].name == "leaf4");
  CHECK(t.switches[3].line == 5);
  CHECK(t.switches[3].nodes.back() == "gpu016");
  CHECK(t.switch_of_node.size() == 16);
  CHECK(t.switches[t.switch_of_node.at("gpu010")].name == "leaf3");
  CHECK(t.level == std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 2});
  CHECK(t.roots == std::vector<size_t>{6});
}

TEST_CASE("a bad topology.conf is one line naming the file and the line") {
  CHECK(parse_error(std::string(kThreeLevels) + "SwitchName=leaf2 Nodes=gpu017\n") ==
        "topology.conf: line 10: switch \"leaf2\" is defined again (first on line 3)");
  CHECK(parse_error("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[2-3]\n") ==
        "topology.conf: line 2: node \"n2\" is under switch \"b\" and switch \"a\"");
  CHECK(parse_error("SwitchName=a Switches=b\nSwitchName=b Switches=a\n") ==
        "topology.conf: line 1: switch \"a\" is its own ancestor (a loop of switches)");
  CHECK(parse_error("SwitchName=a Switches=c\n") ==
        "topology.conf: line 1: switch \"a\" lists switch \"c\", which no SwitchName line defines");
  CHECK(parse_error("SwitchName=a Nodes=n1\nSwitchName=b Switches=a\nSwitchName=c Switches=a\n") ==
        "topology.conf: line 3: switch \"a\" is listed by \"c\" and by \"b\"");
  CHECK(parse_error("SwitchName=a Nodes=n1 Speed=10\n") ==
        "topology.conf: line 1: unknown key \"Speed\" (known: SwitchName, Nodes, Switches, LinkSpeed)");
  CHECK(parse_error("Nodes=n1\n") == "topology.conf: line 1: expected SwitchName=NAME");
  CHECK(parse_error("SwitchName=a Nodes=n[3-1]\n") ==
        "topology.conf: line 1: Nodes: \"n[3-1]\": range 3-1 runs backwards");
  CHECK(parse_error("# nothing\n\n") ==
        "topology.conf: no SwitchName line: expected the switches of the cluster");
  CHECK(parse_error("SwitchName=a Nodes\n") == "topology.conf: line 1: expected Key=Value, got \"Nodes\"");
}

TEST_CASE(
    "a topology.conf that lists more nodes and switches than the bound is refused at the line that passes "
    "it") {
  // 2 x 65,537 names: each line's expression is within the bound, the two together are not.
  const std::string text = "SwitchName=a Nodes=n[000000-065536]\nSwitchName=b Nodes=m[000000-065536]\n";
  const std::string error = test::input_error_of([&] { inventory::SlurmTopology::parse(text, "t.conf"); });
  CHECK(error.find("t.conf") != std::string::npos);
  CHECK(error.find("line 2: the file lists more than 131072 nodes and switches") != std::string::npos);
}

TEST_CASE("names the shell or Slurm would read as syntax are refused where they are written") {
  CHECK(parse_error("SwitchName=leaf1 Nodes=gpu001,gpu$(touch${IFS}pwned)\n")
            .find("topology.conf: line 1: Nodes: \"gpu$(touch${IFS}pwned)\" is not a host name") == 0);
  CHECK(parse_error("SwitchName=leaf`id` Nodes=gpu001\n").find("line 1: SwitchName: expected a host name") !=
        std::string::npos);
  CHECK(parse_error("SwitchName=spine Switches=leaf;id\n").find("is not a host name") != std::string::npos);
}

TEST_CASE("a chain of switches as deep as the file may hold: levels without recursion") {
  // 50,000 switches, each the parent of the next (the levels a recursive walk would take 50,000 frames for).
  const size_t depth = 50000;
  std::string text;
  for (size_t i = 0; i + 1 < depth; ++i)
    text += "SwitchName=s" + std::to_string(i) + " Switches=s" + std::to_string(i + 1) + "\n";
  text += "SwitchName=s" + std::to_string(depth - 1) + " Nodes=gpu001\n";
  const auto t = inventory::SlurmTopology::parse(text, "topology.conf");
  REQUIRE(t.roots.size() == 1);
  CHECK(t.switches[t.roots[0]].name == "s0");
  CHECK(t.level[t.roots[0]] == depth - 1);
  CHECK(t.level[depth - 1] == 0);
  // A loop far down the chain is still found.
  text += "SwitchName=s" + std::to_string(depth) + " Switches=s0\n";
  text.replace(text.rfind("Nodes=gpu001"), 12, "Switches=s" + std::to_string(depth));
  CHECK(parse_error(text).find("its own ancestor") != std::string::npos);
}
