// Resolves the model names a topology file uses ("gpu", "nvlink") to the models a scenario binds.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/param_reader.hpp"
#include "topology/machine.hpp"

namespace zs::topology {

/// The models a scenario binds, by the name topology files use for them.
struct ModelSet {
  std::map<std::string, hw::ComputeUnitModel> units;
  std::map<std::string, hw::LinkModel> links;
  std::map<std::string, hw::MemoryPoolModel> memories;
  std::map<std::string, hw::SwitchModel> switches;
  std::map<std::string, hw::OpticalSwitchModel> optical_switches;
};

/// Adds bound models to a Machine on first use and returns their index there.
class ModelBinder {
 public:
  ModelBinder(const ModelSet& models, Machine& machine) : models_(models), machine_(machine) {}

  /// Reads the model name at `key` of `params` and returns its unit-model index in the machine.
  uint32_t unit_model(core::ParamReader& params, std::string_view key);
  /// Reads the model name at `key` of `params` and returns its link-model index in the machine.
  uint32_t link_model(core::ParamReader& params, std::string_view key);
  /// Reads the model name at `key` of `params` and returns its memory-pool-model index in the machine.
  uint32_t memory_model(core::ParamReader& params, std::string_view key);
  /// Reads the model name at `key` of `params` and returns its switch-model index in the machine.
  uint32_t switch_model(core::ParamReader& params, std::string_view key);
  /// The switch-model index for an optional `key`, or kNoModel when the key is absent.
  uint32_t optional_switch_model(core::ParamReader& params, std::string_view key);
  /// Reads the model name at `key` of `params` and returns its optical-switch-model index.
  uint32_t optical_switch_model(core::ParamReader& params, std::string_view key);
  /// The link-model index of one circuit of the given optical switch model (added on first use).
  uint32_t circuit_link_model(uint32_t optical_switch_model);

 private:
  const ModelSet& models_;
  Machine& machine_;
  std::map<std::string, uint32_t> unit_index_;
  std::map<std::string, uint32_t> link_index_;
  std::map<std::string, uint32_t> memory_index_;
  std::map<std::string, uint32_t> switch_index_;
  std::map<std::string, uint32_t> optical_index_;
  std::map<uint32_t, uint32_t> circuit_link_index_;
};

}  // namespace zs::topology
