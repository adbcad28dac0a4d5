// Parameter set of a disaggregated memory pool (CXL-attached DRAM, pooled host memory).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

/// A pool is shared by every unit attached to it: all its traffic crosses its ports, so concurrent
/// readers share ports x port bandwidth. Each access pays the load latency once.
class MemoryPoolModel {
 public:
  /// Reads a model file ("kind": "memory-pool"); every parameter needs a cited source.
  static MemoryPoolModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  core::Bytes capacity() const { return capacity_; }                 ///< B
  uint32_t ports() const { return ports_; }                          ///< links into the fabric
  core::ByteRate port_bandwidth() const { return port_bandwidth_; }  ///< B/s per port per direction
  core::Seconds load_latency() const { return load_latency_; }       ///< s per access
  core::ByteRate bandwidth() const { return port_bandwidth_ * double(ports_); }  ///< all ports, B/s
  core::Watts power() const { return power_; }  ///< W of the pool, its ports included
  /// The price of one pool and its service life; nothing: unpriced.
  const std::optional<PartPrice>& price() const { return price_; }

 private:
  std::string name_;
  std::string description_;
  core::Bytes capacity_;
  uint32_t ports_ = 1;
  core::ByteRate port_bandwidth_;
  core::Seconds load_latency_;
  core::Watts power_;
  std::optional<PartPrice> price_;
  nlohmann::json resolved_;
};

}  // namespace zs::hw
