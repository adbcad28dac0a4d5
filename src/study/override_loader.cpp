// A validation's scenario loaded with the values --set sets in every one.
#include "study/override_loader.hpp"

#include <algorithm>
#include <stdexcept>

#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_patch.hpp"

namespace zs::study {

scenario::Scenario load_with_overrides(const core::FileSource& files, const std::string& path,
                                       const std::vector<scenario::RunOverride>& overrides,
                                       const std::string& label) {
  scenario::Scenario s = scenario::ScenarioLoader(files).load(path);
  if (overrides.empty()) return s;
  scenario::ScenarioPatch patch(files, path, s.resolved);
  std::vector<scenario::RunOverride> ordered = overrides;  // files named first, then what lands in them
  std::stable_partition(ordered.begin(), ordered.end(),
                        [&](const scenario::RunOverride& o) { return patch.names_file(o.pointer, o.value); });
  for (const auto& o : ordered) {
    try {
      patch.set(o.pointer, o.value, path, "zettasim validate --set");
    } catch (const std::invalid_argument& e) {
      throw OverrideError("--set", o.pointer, std::string(e.what()) + " (" + label + ")");
    }
  }
  core::OverlayFileSource patched(files, patch.files());
  try {
    s = scenario::ScenarioLoader(patched).load(path);
  } catch (const core::InputError& e) {  // it loads without the overrides: they make it invalid
    throw OverrideError("--set", "", label + " with what --set sets: " + e.what());
  }
  for (const auto& o : overrides) {
    const nlohmann::json& got = s.resolved.at(nlohmann::json::json_pointer(o.pointer));
    if ((o.value.is_number() || o.value.is_boolean()) && got != o.value)
      throw OverrideError("--set", o.pointer,
                          "set to " + o.value.dump() + ", but " + label + " resolved it to " + got.dump() +
                              " (zettasim derives it from other values)");
  }
  return s;
}

}  // namespace zs::study
