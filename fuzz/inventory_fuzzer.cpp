// Fuzz target: a cluster inventory, the planner's and run's input: one of its four files replaced by the
// input (the first byte picks which: the inventory JSON, topology.conf, the node list or the GPU topology
// matrix), the others the shipped hgx-h100-4node example's, built against that example's models.
#include <array>
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/machine_loader.hpp"
#include "shipped_files.hpp"

namespace {

const std::string kFolder = "topologies/inventory/hgx-h100-4node/";
const std::array<std::string, 4> kFiles{"cluster.json", "topology.conf", "nodes.txt", "hgx-h100.topo.txt"};

/// The models the example's machine file binds, read once (the `model` target fuzzes model files).
zs::topology::ModelSet example_models(const zs::core::FileSource& shipped) {
  const nlohmann::json machine = shipped.read_json(kFolder + "machine.json");
  zs::core::JsonObject bindings(machine.at("models"), kFolder + "machine.json", "/models");
  return zs::scenario::load_models(shipped, bindings).models;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  if (size == 0) return 0;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  static const topology::TopologyGeneratorRegistry generators = topology::builtin_topology_generators();
  static const topology::ModelSet models = example_models(shipped);
  const std::string replaced = kFolder + kFiles[data[0] % kFiles.size()];
  const core::OverlayFileSource files(
      shipped, {{replaced, std::string(reinterpret_cast<const char*>(data) + 1, size - 1)}});
  fuzz::check_contract([&] {
    const std::string path = kFolder + "cluster.json";
    const nlohmann::json doc = files.read_json(path);
    scenario::build_topology_file(files, doc, path, models, generators, fuzz::kFuzzLimits.max_machine_nodes);
  });
  return 0;
}
