// Memory pool model loading.
#include "hw/memory_pool_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

const core::ParamTable& MemoryPoolModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kMemoryPool, "a disaggregated memory pool (CXL memory, a pooled HBM or DRAM appliance)",
      with_part_price(
          {core::Param::bytes("capacity", "memory the pool holds").cite(),
           core::Param::integer("ports", 1, 1 << 16, "links from the pool into the fabric").cite(),
           core::Param::byte_rate("port_bandwidth", "bandwidth of one port per direction").cite(),
           core::Param::seconds("load_latency", "latency of one access").cite(),
           core::Param::watts("power",
                              "power of the pool: its memory, controllers and ports (and the switch ports "
                              "they take)")
               .non_negative()
               .cite()},
          "one pool"));
  return table;
}

MemoryPoolModel MemoryPoolModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  MemoryPoolModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.capacity_ = r.get<core::Bytes>("capacity");
  m.ports_ = static_cast<uint32_t>(r.get<int64_t>("ports"));
  m.port_bandwidth_ = r.get<core::ByteRate>("port_bandwidth");
  m.load_latency_ = r.get<core::Seconds>("load_latency");
  m.power_ = r.get<core::Watts>("power");
  m.price_ = read_part_price(r);
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

}  // namespace zs::hw
