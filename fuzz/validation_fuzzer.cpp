// Fuzz target: a validation file beside the shipped ones (held in memory): a published-runs table (runs,
// their published figures and scaling series) or a Megatron-LM table validation, read as `zettasim validate`
// reads it before it simulates anything.
#include <cstddef>
#include <cstdint>

#include "core/file_kind.hpp"
#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/megatron_validation.hpp"
#include "scenario/published_runs.hpp"
#include "shipped_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  const std::string path = "scenarios/validation/fuzz.json";
  const core::OverlayFileSource files(shipped,
                                      {{path, std::string(reinterpret_cast<const char*>(data), size)}});
  fuzz::check_contract([&] {
    if (scenario::validation_kind(files, path) == core::FileKind::kPublishedRuns)
      scenario::PublishedRunsSpec::load(files, path);
    else
      scenario::ValidationSpec::load(files, path);
  });
  return 0;
}
