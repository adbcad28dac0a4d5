// Parallel file system model loading and its transfer times.
#include "hw/file_system_model.hpp"

#include <algorithm>

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::hw {

const core::ParamTable& FileSystemModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kFileSystem, "a parallel file system that checkpoints are written to and read from",
      {core::Param::bytes("capacity", "what the file system holds").cite(),
       core::Param::byte_rate("write_bandwidth", "sustained write bandwidth, all clients together").cite(),
       core::Param::byte_rate("read_bandwidth", "sustained read bandwidth, all clients together").cite(),
       core::Param::byte_rate("client_bandwidth", "bandwidth of one client (compute unit)").cite()});
  return table;
}

FileSystemModel FileSystemModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  FileSystemModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.capacity_ = r.get<core::Bytes>("capacity");
  m.write_bandwidth_ = r.get<core::ByteRate>("write_bandwidth");
  m.read_bandwidth_ = r.get<core::ByteRate>("read_bandwidth");
  m.client_bandwidth_ = r.get<core::ByteRate>("client_bandwidth");
  r.finish();
  m.resolved_ = r.resolved();
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

}  // namespace zs::hw
