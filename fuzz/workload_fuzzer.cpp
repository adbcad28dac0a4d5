// Fuzz target: a workload model file (a transformer or mixture-of-experts specification).
#include <cstddef>
#include <cstdint>

#include "core/json_object.hpp"
#include "fuzz_contract.hpp"
#include "workload/transformer_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::check_contract([&] {
    const nlohmann::json doc = core::parse_json(text, "workload.json");
    core::JsonObject o(doc, "workload.json", "");
    const auto spec = workload::TransformerSpec::from_json(o);
    if (!(spec.total_params() >= spec.active_params()) || !(spec.active_params() > 0))
      fuzz::finding("an accepted model has total parameters " + std::to_string(spec.total_params()) +
                    " and active parameters " + std::to_string(spec.active_params()));
  });
  return 0;
}
