// Fuzz target: a scenario file, its includes resolved against the shipped files held in memory.
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/scenario_loader.hpp"
#include "shipped_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  static const scenario::Catalog catalog;
  const std::string path = "scenarios/fuzz.json";
  const core::OverlayFileSource files(shipped,
                                      {{path, std::string(reinterpret_cast<const char*>(data), size)}});
  fuzz::check_contract([&] { scenario::ScenarioLoader(files, catalog, fuzz::kFuzzLimits).load(path); });
  return 0;
}
