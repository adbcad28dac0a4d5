// Source citations of model parameters.
#include "hw/parameter_sources.hpp"

#include <algorithm>

namespace zs::hw {

std::map<std::string, std::string> read_parameter_sources(core::JsonObject& model,
                                                          const std::vector<std::string>& parameters) {
  core::JsonObject sources = model.object("sources");
  std::map<std::string, std::string> out;
  for (const auto& key : sources.keys()) {
    if (std::find(parameters.begin(), parameters.end(), key) == parameters.end())
      throw sources.error(key, "cites a source for a parameter this model does not set");
  }
  for (const auto& p : parameters) {
    if (!sources.has(p))
      throw sources.error("missing the source of parameter \"" + p + "\" (every value needs one)");
    std::string cite = sources.string(p);
    if (cite.empty()) throw sources.error(p, "empty source citation");
    out.emplace(p, cite);
  }
  sources.finish();
  return out;
}

}  // namespace zs::hw
