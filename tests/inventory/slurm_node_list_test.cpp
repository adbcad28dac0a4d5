// scontrol show nodes --oneliner lines: names, GPU gres, states with spaces around them, and bad lines.
#include <doctest/doctest.h>

#include "inventory/slurm_node_list.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

std::string parse_error(const std::string& text) {
  return test::input_error_of([&] { inventory::parse_slurm_node_list(text, "nodes.txt"); });
}

}  // namespace

TEST_CASE("a node line as Slurm 22.05 prints it: OS= holds spaces, Reason= runs to the end") {
  const std::string text =
      "NodeName=gpu007 Arch=x86_64 CoresPerSocket=56 Gres=gpu:h100:8(S:0-1) NodeAddr=gpu007 "
      "OS=Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01) RealMemory=2000000 "
      "State=IDLE+DRAIN ThreadsPerCore=2 Partitions=gpu Reason=GPU 5 Xid=79 seen [root@2026-11-20T08:14:02]\n"
      "\n"
      "NodeName=gpu008 Gres=gpu:8 State=MIXED\r\n"
      "NodeName=login1 Gres=(null) State=IDLE\n";
  const auto nodes = inventory::parse_slurm_node_list(text, "nodes.txt");
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].name == "gpu007");
  CHECK(nodes[0].gpu_type == "h100");
  CHECK(nodes[0].gpus == 8);
  CHECK(nodes[0].state == "IDLE+DRAIN");
  CHECK(nodes[0].reason == "GPU 5 Xid=79 seen [root@2026-11-20T08:14:02]");
  CHECK_FALSE(nodes[0].usable());
  CHECK(nodes[1].line == 3);
  CHECK(nodes[1].gpu_type.empty());
  CHECK(nodes[1].gpus == 8);
  CHECK(nodes[1].usable());
  CHECK(nodes[2].gpus == 0);
}

TEST_CASE("a node is usable only when every word of its state is a healthy one") {
  auto usable = [](const std::string& state) {
    return inventory::SlurmNode{"n", "", 8, state, "", 1}.usable();
  };
  CHECK(usable("IDLE"));
  CHECK(usable("ALLOCATED"));
  CHECK(usable("MIXED+COMPLETING"));
  CHECK(usable("IDLE+RESERVED"));
  CHECK_FALSE(usable("DOWN+NOT_RESPONDING"));
  CHECK_FALSE(usable("MIXED+DRAIN"));
  CHECK_FALSE(usable("IDLE+MAINTENANCE"));
  CHECK_FALSE(usable("IDLE+POWERED_DOWN"));
  CHECK_FALSE(usable("IDLE+SOMETHING_NEW"));
  CHECK_FALSE(usable(""));
}

TEST_CASE("several gres entries: the GPUs of one type are counted, other gres ignored") {
  const auto nodes = inventory::parse_slurm_node_list(
      "NodeName=a Gres=nic:2,gpu:a100:4(S:0),gpu:a100:4(S:1) State=IDLE\n", "f");
  CHECK(nodes[0].gpus == 8);
  CHECK(nodes[0].gpu_type == "a100");
}

TEST_CASE("bad node lines: one error naming the file and the line") {
  CHECK(parse_error("NodeName=a State=IDLE\nArch=x86_64 State=IDLE\n") ==
        "nodes.txt: line 2: expected NodeName= (a node line as scontrol show nodes --oneliner prints it)");
  CHECK(parse_error("NodeName=a Gres=gpu:8\n") ==
        "nodes.txt: line 1: expected State= (a node line as scontrol show nodes --oneliner prints it)");
  CHECK(parse_error("NodeName=a State=IDLE\nNodeName=a State=IDLE\n") ==
        "nodes.txt: line 2: node a is already listed on line 1");
  CHECK(parse_error("NodeName=a Gres=gpu:h100:eight State=IDLE\n") ==
        "nodes.txt: line 1: node a: Gres=gpu:h100:eight: the GPU count \"eight\" is not a whole number");
  CHECK(parse_error("NodeName=a Gres=gpu:h100:4,gpu:a100:4 State=IDLE\n") ==
        "nodes.txt: line 1: node a: Gres=gpu:h100:4,gpu:a100:4: two GPU types on one node (\"h100\" and "
        "\"a100\"): the planner takes one GPU type per node");
  CHECK(parse_error("NodeName=a Gres=gpu:x:y:4 State=IDLE\n") ==
        "nodes.txt: line 1: node a: Gres=gpu:x:y:4: expected gpu:COUNT or gpu:TYPE:COUNT");
}

TEST_CASE("a node name the shell or Slurm would read as syntax is refused on its line") {
  const std::string e = parse_error("NodeName=gpu$(id) State=IDLE Gres=gpu:h100:8\n");
  CHECK(e.find("nodes.txt: line 1: NodeName: expected a host name") == 0);
  CHECK(e.find("got \"gpu$(id)\"") != std::string::npos);
}
