// Fuzz target: a topology file (any generator, an explicit graph or a cluster inventory), bound to the
// shipped models under the names the shipped machines use. The models are read once: the `model` target
// fuzzes their files, and reading them per input would spend most of each run outside the topology readers.
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/machine_loader.hpp"
#include "shipped_files.hpp"

namespace {

/// The shipped models under the binding names the shipped machine files use.
zs::topology::ModelSet shipped_models(const zs::core::FileSource& shipped) {
  const nlohmann::json bindings = nlohmann::json::parse(R"({
      "gpu": "../models/h100-sxm.json", "npu": "../models/tpu-v5p.json", "tpu": "../models/tpu-v4.json",
      "nvlink": "../models/nvlink4.json", "nvswitch": "../models/nvswitch-gen3.json",
      "ib": "../models/ib-hdr.json", "nic": "../models/ib-ndr.json", "ici": "../models/ici-v4.json",
      "tor": "../models/quantum-2-ndr.json", "cxl": "../models/cxl-pool-2tb.json",
      "ocs": "../models/palomar-ocs.json"})");
  zs::core::JsonObject object(bindings, "topologies/fuzz.machine.json", "/models");
  return zs::scenario::load_models(shipped, object).models;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  static const topology::TopologyGeneratorRegistry generators = topology::builtin_topology_generators();
  static const topology::ModelSet models = shipped_models(shipped);
  const std::string path = "topologies/fuzz.json";
  const core::OverlayFileSource files(shipped,
                                      {{path, std::string(reinterpret_cast<const char*>(data), size)}});
  fuzz::check_contract([&] {
    const nlohmann::json doc = files.read_json(path);
    scenario::build_topology_file(files, doc, path, models, generators, fuzz::kFuzzLimits.max_machine_nodes);
  });
  return 0;
}
