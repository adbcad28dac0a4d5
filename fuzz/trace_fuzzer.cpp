// Fuzz target: a zettasim trace, JSON or CBOR (the self-describe tag selects CBOR), read and validated.
#include <cstddef>
#include <cstdint>

#include "fuzz_contract.hpp"
#include "workload/trace_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  fuzz::check_contract([&] {
    const auto trace =
        workload::trace_from_json(workload::parse_trace_document(bytes, "trace.json"), "trace.json");
    workload::validate(trace, "trace.json");
  });
  return 0;
}
