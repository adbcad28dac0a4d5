// Link model loading.
#include "hw/link_model.hpp"

#include "hw/parameter_sources.hpp"

namespace zs::hw {

LinkModel LinkModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "link") throw json.error("kind", "expected \"link\" for a link model");
  LinkModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  m.bandwidth_ = json.byte_rate("bandwidth");
  m.latency_ = json.seconds("latency");
  std::vector<std::string> params{"bandwidth", "latency"};
  if (json.has("efficiency")) {
    m.efficiency_ = json.number("efficiency", 0.01, 1.0);
    params.emplace_back("efficiency");
  }
  m.sources_ = read_parameter_sources(json, params);
  json.finish();
  return m;
}

LinkModel LinkModel::derived(std::string name, core::ByteRate bandwidth, core::Seconds latency,
                             std::string origin) {
  LinkModel m;
  m.name_ = std::move(name);
  m.description_ = "derived: " + origin;
  m.bandwidth_ = bandwidth;
  m.latency_ = latency;
  m.sources_ = {{"bandwidth", origin}, {"latency", origin}};
  return m;
}

nlohmann::json LinkModel::to_json() const {
  return {{"kind", "link"},
          {"name", name_},
          {"description", description_},
          {"bandwidth", core::to_string(bandwidth_)},
          {"latency", core::to_string(latency_)},
          {"efficiency", efficiency_},
          {"sources", sources_}};
}

}  // namespace zs::hw
