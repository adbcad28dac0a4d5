// Parameter set of a parallel file system, the persistent store checkpoints are written to.
#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"

namespace zs::hw {

/// A parallel file system (Lustre, GPFS, Meta's Tectonic) as a checkpoint store: an aggregate sustained
/// write and read bandwidth shared by every client, each client limited by its own path to the store (its
/// share of a server's front-end NIC). Writing or reading B bytes from c clients at once takes
/// B / min(aggregate, c x client bandwidth). Metadata operations, striping and caching are not modelled.
class FileSystemModel {
 public:
  /// Reads a model file ("kind": "file-system"); every parameter needs a cited source.
  static FileSystemModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  core::Bytes capacity() const { return capacity_; }                     ///< B
  core::ByteRate write_bandwidth() const { return write_bandwidth_; }    ///< B/s, sustained, all clients
  core::ByteRate read_bandwidth() const { return read_bandwidth_; }      ///< B/s, sustained, all clients
  core::ByteRate client_bandwidth() const { return client_bandwidth_; }  ///< B/s per client (compute unit)
  /// Seconds to write `bytes` spread evenly over `clients` clients writing at once.
  core::Seconds write_time(core::Bytes bytes, uint64_t clients) const;
  /// Seconds to read `bytes` spread evenly over `clients` clients reading at once.
  core::Seconds read_time(core::Bytes bytes, uint64_t clients) const;

 private:
  std::string name_;
  std::string description_;
  core::Bytes capacity_;
  core::ByteRate write_bandwidth_;
  core::ByteRate read_bandwidth_;
  core::ByteRate client_bandwidth_;
  nlohmann::json resolved_;
};

}  // namespace zs::hw
