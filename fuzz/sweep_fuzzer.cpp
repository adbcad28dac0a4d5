// Fuzz target: a sweep file beside the shipped scenarios (held in memory): read, planned against its base,
// and its first point's scenario loaded.
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/sweep_plan.hpp"
#include "shipped_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  const std::string path = "scenarios/sweeps/fuzz.json";
  const core::OverlayFileSource files(shipped,
                                      {{path, std::string(reinterpret_cast<const char*>(data), size)}});
  fuzz::check_contract([&] {
    const auto plan =
        scenario::SweepPlan::make(files, scenario::SweepSpec::load(files, path), fuzz::kFuzzLimits);
    scenario::load_sweep_point(files, plan, 0, plan.limits);
  });
  return 0;
}
