// Parameter set of an optical circuit switch (MEMS mirrors: Google's Palomar class).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"
#include "hw/link_model.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

/// An optical circuit switch joins pairs of its ports by light paths (circuits). A circuit is a
/// transparent point-to-point link between the two nodes on its ports: no buffering, no packet
/// switching, no in-network compute. Changing a port's circuit takes `reconfiguration_time`, during
/// which the port carries nothing.
class OpticalSwitchModel {
 public:
  /// Reads a model file ("kind": "optical-circuit-switch"); every parameter needs a cited source.
  static OpticalSwitchModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  uint32_t ports() const { return ports_; }
  core::Seconds reconfiguration_time() const { return reconfiguration_time_; }  ///< s
  core::ByteRate circuit_bandwidth() const { return circuit_bandwidth_; }       ///< B/s per direction
  core::Seconds latency() const { return latency_; }  ///< s, node to node through one circuit
  core::Watts power() const { return power_; }        ///< W per switch, held whatever its circuits
  /// W of the transceiver at the node end of each cabled port.
  core::Watts transceiver_power() const { return transceiver_power_; }
  /// The price of one switch with its ports' transceivers, and its service life; nothing: unpriced.
  const std::optional<PartPrice>& price() const { return price_; }
  /// The link model of one circuit (its bandwidth and latency).
  LinkModel circuit_link() const;

 private:
  std::string name_;
  std::string description_;
  uint32_t ports_ = 0;
  core::Seconds reconfiguration_time_;
  core::ByteRate circuit_bandwidth_;
  core::Seconds latency_;
  core::Watts power_;
  core::Watts transceiver_power_;
  std::optional<PartPrice> price_;
  nlohmann::json resolved_;
};

}  // namespace zs::hw
