// Fuzz target: a regression suite beside the shipped scenarios (held in memory), and optionally its
// baselines file: the input's text after a line "--zettasim-fuzz-baselines--" is put where the suite says
// its baselines are.
#include <cstddef>
#include <cstdint>

#include "core/file_source.hpp"
#include "fuzz_contract.hpp"
#include "scenario/regression_suite.hpp"
#include "shipped_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  static const core::BundledFileSource shipped(fuzz::shipped_files());
  static const std::string separator = "\n--zettasim-fuzz-baselines--\n";
  const std::string input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find(separator);
  const std::string path = "scenarios/fuzz-suite.json";
  const core::OverlayFileSource files(shipped, {{path, input.substr(0, split)}});
  fuzz::check_contract([&] {
    const auto suite = scenario::RegressionSuite::load(files, path);
    if (split == std::string::npos) {
      scenario::load_regression_baselines(files, suite);
      return;
    }
    const core::OverlayFileSource with_baselines(files,
                                                 {{suite.baselines, input.substr(split + separator.size())}});
    scenario::load_regression_baselines(with_baselines, suite);
  });
  return 0;
}
