// Parallel file system model loading and its transfer times.
#include "hw/file_system_model.hpp"

#include <algorithm>

#include "hw/parameter_sources.hpp"

namespace zs::hw {

FileSystemModel FileSystemModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "file-system")
    throw json.error("kind", "expected \"file-system\" for a parallel file system model");
  FileSystemModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  m.capacity_ = json.bytes("capacity");
  m.write_bandwidth_ = json.byte_rate("write_bandwidth");
  m.read_bandwidth_ = json.byte_rate("read_bandwidth");
  m.client_bandwidth_ = json.byte_rate("client_bandwidth");
  m.sources_ =
      read_parameter_sources(json, {"capacity", "write_bandwidth", "read_bandwidth", "client_bandwidth"});
  json.finish();
  return m;
}

namespace {
core::Seconds transfer_time(core::Bytes bytes, uint64_t clients, core::ByteRate aggregate,
                            core::ByteRate per_client) {
  const double rate = std::min(aggregate.value(), static_cast<double>(clients) * per_client.value());
  return core::Seconds(bytes.value() / rate);
}
}  // namespace

core::Seconds FileSystemModel::write_time(core::Bytes bytes, uint64_t clients) const {
  return transfer_time(bytes, clients, write_bandwidth_, client_bandwidth_);
}

core::Seconds FileSystemModel::read_time(core::Bytes bytes, uint64_t clients) const {
  return transfer_time(bytes, clients, read_bandwidth_, client_bandwidth_);
}

nlohmann::json FileSystemModel::to_json() const {
  return {{"kind", "file-system"},
          {"name", name_},
          {"description", description_},
          {"capacity", core::to_string(capacity_)},
          {"write_bandwidth", core::to_string(write_bandwidth_)},
          {"read_bandwidth", core::to_string(read_bandwidth_)},
          {"client_bandwidth", core::to_string(client_bandwidth_)},
          {"sources", sources_}};
}

}  // namespace zs::hw
