// Parameter set of an electrical packet switch (NVSwitch, InfiniBand, Ethernet).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"

namespace zs::hw {

/// A store-and-forward packet switch: every route through it pays `latency` once; a topology may
/// attach at most `radix` ports' worth of links to it. A switch with in-network reduction (SHARP,
/// NVLS) can reduce data flowing through it, which in-network collective algorithms use.
class SwitchModel {
 public:
  /// Reads a model file ("kind": "switch"); every parameter needs a cited source.
  static SwitchModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  uint32_t radix() const { return radix_; }                          ///< ports
  core::ByteRate port_bandwidth() const { return port_bandwidth_; }  ///< B/s per port per direction
  core::Seconds latency() const { return latency_; }                 ///< s, port to port
  bool in_network_reduction() const { return in_network_reduction_; }
  /// Fraction of port bandwidth at which the switch absorbs data it reduces (its reduction throughput
  /// per port over the port's line rate); 1 for a switch without in-network reduction.
  double reduction_efficiency() const { return reduction_efficiency_; }

 private:
  std::string name_;
  std::string description_;
  uint32_t radix_ = 0;
  core::ByteRate port_bandwidth_;
  core::Seconds latency_;
  bool in_network_reduction_ = false;
  double reduction_efficiency_ = 1.0;
  nlohmann::json resolved_;
};

}  // namespace zs::hw
