// Memory pool model loading.
#include "hw/memory_pool_model.hpp"

#include "hw/parameter_sources.hpp"

namespace zs::hw {

MemoryPoolModel MemoryPoolModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "memory-pool")
    throw json.error("kind", "expected \"memory-pool\" for a memory pool model");
  MemoryPoolModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  m.capacity_ = json.bytes("capacity");
  m.ports_ = static_cast<uint32_t>(json.integer("ports", 1, 1 << 16));
  m.port_bandwidth_ = json.byte_rate("port_bandwidth");
  m.load_latency_ = json.seconds("load_latency");
  m.sources_ = read_parameter_sources(json, {"capacity", "ports", "port_bandwidth", "load_latency"});
  json.finish();
  return m;
}

nlohmann::json MemoryPoolModel::to_json() const {
  return {{"kind", "memory-pool"},
          {"name", name_},
          {"description", description_},
          {"capacity", core::to_string(capacity_)},
          {"ports", ports_},
          {"port_bandwidth", core::to_string(port_bandwidth_)},
          {"load_latency", core::to_string(load_latency_)},
          {"sources", sources_}};
}

}  // namespace zs::hw
