// Parameter set of one link type (NVLink, PCIe, InfiniBand, Ethernet, optical).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"
#include "hw/collective_protocol.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

/// A full-duplex link: the bandwidth is available in each direction independently. Bulk data moves at
/// bandwidth x efficiency (protocol and packet overhead, as measured by collective benchmarks); the
/// efficiency is 1 unless the model gives one with its source. A collective library's per-step cost
/// (step_latency) floors the latency of every transfer whose route crosses the link, when the scenario
/// switches it on (Machine::step_latency).
class LinkModel {
 public:
  /// Reads a model file ("kind": "link"); every parameter needs a cited source.
  static LinkModel from_json(core::JsonObject& json);
  /// A link derived from other parameters (e.g. a memory pool's ports); `origin` says from what.
  /// Its ports draw no power of their own: `ports_counted_by` says which model's power holds them.
  static LinkModel derived(std::string name, core::ByteRate bandwidth, core::Seconds latency,
                           std::string origin, std::string ports_counted_by);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  core::ByteRate bandwidth() const { return bandwidth_; }  ///< B/s per direction
  core::Seconds latency() const { return latency_; }       ///< s, one traversal
  double efficiency() const { return efficiency_; }        ///< achieved fraction of bandwidth for bulk data
  /// Least time one collective-library step over this link takes, wire included, s (0: no floor).
  core::Seconds step_latency() const { return step_latency_; }
  /// The step latency under `protocol`, s: step_latency for Simple; for LL128 and LL the model's own
  /// (step_latency_ll128, step_latency_ll), or step_latency where the model gives none. A step of the
  /// library's tree takes the model's tree_step_latency for the protocol where it gives one.
  core::Seconds step_latency(CollectiveProtocol protocol,
                             LibraryAlgorithm algorithm = LibraryAlgorithm::kRing) const;
  /// What bulk data achieves per direction: bandwidth x efficiency, B/s.
  core::ByteRate effective_bandwidth() const { return bandwidth_ * efficiency_; }
  /// W drawn at a compute unit's end of one link beyond the unit's own power (NIC, transceiver).
  core::Watts unit_port_power() const { return unit_port_power_; }
  /// W of one switch port of this type with its transceiver (the switch's power over its ports).
  core::Watts switch_port_power() const { return switch_port_power_; }
  /// Price of a unit's end and of a switch port of this type, with their service life; nothing: unpriced.
  const std::optional<PartPrice>& unit_port_price() const { return unit_port_price_; }
  const std::optional<PartPrice>& switch_port_price() const { return switch_port_price_; }

 private:
  std::string name_;
  std::string description_;
  core::ByteRate bandwidth_;
  core::Seconds latency_;
  double efficiency_ = 1.0;
  core::Seconds step_latency_{0.0};
  core::Seconds step_latency_ll128_{0.0};  ///< 0: not given
  core::Seconds step_latency_ll_{0.0};     ///< 0: not given
  /// tree_step_latency, _ll128, _ll in hw::CollectiveProtocol order (Simple, LL128, LL); 0: not given.
  std::array<core::Seconds, kCollectiveProtocols.size()> tree_step_latency_{};
  core::Watts unit_port_power_;
  core::Watts switch_port_power_;
  std::optional<PartPrice> unit_port_price_;
  std::optional<PartPrice> switch_port_price_;
  nlohmann::json resolved_;

  void read_port_prices(core::ParamReader& reader);
};

}  // namespace zs::hw
