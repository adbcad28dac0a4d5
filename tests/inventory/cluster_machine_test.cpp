// Cluster inventories to machines: hosts in tree order, drained nodes left out, NVSwitch and NIC wiring,
// uplinks from what the nodes below send, and one error line for each way an inventory can be wrong.
#include <doctest/doctest.h>

#include <map>

#include "core/file_source.hpp"
#include "inventory/cluster_machine.hpp"
#include "support/input_error_of.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {

const std::string kDir = ZS_SOURCE_DIR "/topologies/inventory/hgx-h100-4node/";

/// The shipped example's files, with some replaced.
struct Inventory {
  std::map<std::string, std::string> replaced;  // file name in kDir → text
  nlohmann::json cluster = nlohmann::json::parse(*core::DiskFileSource().read(kDir + "cluster.json"));

  topology::Machine build(nlohmann::json* resolved = nullptr) const {
    core::DiskFileSource disk;
    std::map<std::string, std::string> files;
    for (const auto& [name, text] : replaced) files[kDir + name] = text;
    core::OverlayFileSource source(disk, files);
    topology::ModelSet models;
    models.units.emplace("gpu", test::unit_model("989TFLOPS", 0.7, "0s"));
    models.links.emplace("nvlink", test::link_model("450GB/s", "0.5us"));
    models.links.emplace("pcie", test::link_model("64GB/s", "1us"));
    models.links.emplace("nic", test::link_model("50GB/s", "1us"));
    models.switches.emplace("nvswitch", test::switch_model(64, "300ns"));
    nlohmann::json doc = cluster;
    core::JsonObject json(doc, kDir + "cluster.json", "");
    return inventory::build_cluster_machine(json, source, models, topology::kMaxMachineNodes, resolved);
  }
  std::string error() const {
    return test::input_error_of([&] { build(); });
  }
};

}  // namespace

TEST_CASE("the shipped four-node inventory: three usable hosts, the drained one recorded") {
  nlohmann::json resolved;
  const auto m = Inventory{}.build(&resolved);
  CHECK(m.name == "hgx-h100-4node");
  REQUIRE(m.unit_count() == 24);
  CHECK(m.topology.node(m.topology.units()[0]).name == "gpu001/gpu0");
  CHECK(m.topology.node(m.topology.units()[16]).name == "gpu004/gpu0");  // gpu003 is drained
  CHECK(resolved.at("hosts") == 3);
  REQUIRE(resolved.at("left_out").size() == 1);
  CHECK(resolved.at("left_out")[0].at("name") == "gpu003");
  CHECK(resolved.at("left_out")[0].at("state") == "IDLE+DRAIN");
  CHECK(inventory::cluster_gpu_of("gpu004/gpu7").host == "gpu004");
  CHECK(inventory::cluster_gpu_of("gpu004/gpu7").gpu == 7);
  CHECK(inventory::cluster_gpu_of("gpu004").host.empty());
}

TEST_CASE(
    "wiring: NV18 over an 18-link model is width 1, each GPU on its own NIC to the leaf, uplinks carry "
    "the listed nodes' NICs") {
  const auto m = Inventory{}.build();
  std::map<std::string, double> width;  // "a-b" → width
  for (const auto& l : m.topology.links())
    width[m.topology.node(l.a).name + "-" + m.topology.node(l.b).name] = l.width;
  CHECK(width.at("gpu001/gpu3-gpu001/nvswitch") == doctest::Approx(1.0));
  CHECK(width.count("gpu001/gpu3-leaf1") == 1);
  // leaf1: 2 nodes x 8 NICs of 50 GB/s over uplinks of 50 GB/s; leaf2 counts its drained node too.
  CHECK(width.at("leaf1-spine") == doctest::Approx(16.0));
  CHECK(width.at("leaf2-spine") == doctest::Approx(16.0));
  CHECK(m.topology.units().size() + 3 /*nvswitches*/ + 3 /*switches*/ == m.topology.nodes().size());
}

TEST_CASE("oversubscription divides a level's uplinks") {
  Inventory inv;
  inv.cluster["oversubscription"] = {4};
  const auto m = inv.build();
  for (const auto& l : m.topology.links())
    if (m.topology.node(l.b).name == "spine") CHECK(l.width == doctest::Approx(4.0));
  inv.cluster["oversubscription"] = {4, 2};
  CHECK(inv.error() ==
        kDir +
            "cluster.json: /oversubscription: expected at most 1 levels: the top switch (level 1) "
            "has no uplink");
  inv.cluster["oversubscription"] = {0.5};
  CHECK(inv.error() ==
        kDir + "cluster.json: /oversubscription/0: expected an oversubscription between 1 and 1000");
}

TEST_CASE("bad inventories: the file, the line and what was expected") {
  const std::string nodes = *core::DiskFileSource().read(kDir + "nodes.txt");
  {
    Inventory inv;  // a node in two switches
    inv.replaced["topology.conf"] =
        "SwitchName=leaf1 Nodes=gpu[001-002]\nSwitchName=leaf2 Nodes=gpu[002-004]\n"
        "SwitchName=spine Switches=leaf[1-2]\n";
    CHECK(inv.error() ==
          kDir + "topology.conf: line 2: node \"gpu002\" is under switch \"leaf2\" and switch \"leaf1\"");
  }
  {
    Inventory inv;  // a switch loop
    inv.replaced["topology.conf"] = "SwitchName=a Switches=b Nodes=gpu[001-004]\nSwitchName=b Switches=a\n";
    CHECK(inv.error().find(kDir + "topology.conf: ") == 0);
  }
  {
    Inventory inv;  // an unknown GPU type
    std::string text = nodes;
    text.replace(text.find("gpu:h100:8"), 10, "gpu:b200:8");
    inv.replaced["nodes.txt"] = text;
    CHECK(inv.error() == kDir + "nodes.txt: line 1: node gpu001: GPU type \"b200\" is not in " + kDir +
                             "cluster.json's gpu_types (known: \"h100\")");
  }
  {
    Inventory inv;  // a node the topology does not know
    inv.replaced["nodes.txt"] = nodes + "NodeName=gpu099 Gres=gpu:h100:8 State=IDLE\n";
    CHECK(inv.error() ==
          kDir + "nodes.txt: line 5: node gpu099 is under no switch of " + kDir + "topology.conf");
  }
  {
    Inventory inv;  // a GPU count the node topology does not show
    std::string text = nodes;
    text.replace(text.find("gpu:h100:8"), 10, "gpu:h100:4");
    inv.replaced["nodes.txt"] = text;
    CHECK(inv.error() ==
          kDir + "nodes.txt: line 1: node gpu001 has 4 GPUs but " + kDir + "hgx-h100.topo.txt shows 8");
  }
  {
    Inventory inv;  // two trees
    inv.replaced["topology.conf"] =
        "SwitchName=leaf1 Nodes=gpu[001-002]\nSwitchName=leaf2 Nodes=gpu[003-004]\n";
    CHECK(inv.error() ==
          kDir +
              "topology.conf: line 2: switches leaf1 and leaf2 are both top switches over usable "
              "nodes: a job spans one tree (add a SwitchName line above them)");
  }
  {
    Inventory inv;  // every node drained
    std::string text = nodes;
    for (size_t at = text.find("State=IDLE "); at != std::string::npos; at = text.find("State=IDLE ", at + 1))
      text.replace(at, 11, "State=DOWN ");
    inv.replaced["nodes.txt"] = text;
    CHECK(inv.error() == kDir + "nodes.txt: no usable GPU node: every node is drained, down or without GPUs");
  }
  {
    Inventory inv;  // a model the machine does not bind
    inv.cluster["nic_model"] = "roce";
    CHECK(inv.error().find(kDir + "cluster.json: /nic_model: the link model \"roce\" is not bound") == 0);
  }
}
