// Fuzz target: a model file of any kind (hardware models through the machine loader's own dispatch on
// "kind", file systems, failure-rate tables).
#include <cstddef>
#include <cstdint>

#include "core/file_kind.hpp"
#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "fuzz_contract.hpp"
#include "hw/file_system_model.hpp"
#include "reliability/failure_rates.hpp"
#include "scenario/machine_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::check_contract([&] {
    const nlohmann::json doc = core::parse_json(text, "model.json");
    core::JsonObject o(doc, "model.json", "");
    const auto kind = core::kind_of(doc);
    if (kind == core::FileKind::kFailureRates) {
      reliability::FailureRates::from_json(o);
    } else if (kind == core::FileKind::kFileSystem) {
      hw::FileSystemModel::from_json(o);
    } else {
      // The machine loader's reading of every model a machine binds.
      const core::BundledFileSource files({{"model.json", text}});
      const nlohmann::json bindings = {{"m", "model.json"}};
      core::JsonObject object(bindings, "machine.json", "/models");
      scenario::load_models(files, object);
    }
  });
  return 0;
}
