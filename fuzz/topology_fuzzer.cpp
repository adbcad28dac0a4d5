// Fuzz target: a topology file (any generator, or an explicit graph), bound to the shipped models under
// the names the shipped machines use.
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/scenario_loader.hpp"
#include "shipped_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(zs::fuzz::shipped_files());
  static const scenario::Catalog catalog;
  static const std::string machine = R"({"kind": "machine", "topology": "fuzz.json", "models": {
      "gpu": "../models/h100-sxm.json", "npu": "../models/tpu-v5p.json", "tpu": "../models/tpu-v4.json",
      "nvlink": "../models/nvlink4.json", "nvswitch": "../models/nvswitch-gen3.json",
      "ib": "../models/ib-hdr.json", "nic": "../models/ib-ndr.json", "ici": "../models/ici-v4.json",
      "tor": "../models/quantum-2-ndr.json", "cxl": "../models/cxl-pool-2tb.json",
      "ocs": "../models/palomar-ocs.json"}})";
  const core::OverlayFileSource files(
      shipped, {{"topologies/fuzz.json", std::string(reinterpret_cast<const char*>(data), size)},
                {"topologies/fuzz.machine.json", machine}});
  fuzz::check_contract([&] {
    scenario::ScenarioLoader(files, catalog, fuzz::kFuzzLimits).load_machine("topologies/fuzz.machine.json");
  });
  return 0;
}
