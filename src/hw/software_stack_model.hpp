// Parameter set of a training framework's software stack (Megatron-LM, Megatron-Core with Transformer
// Engine, DeepSpeed): the fixed host-side costs its iterations pay beyond their kernels.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"

namespace zs::hw {

/// The host-side work and synchronizations of a training framework that a generated trace does not hold:
/// Python and launch work per layer, a blocking host synchronization per MoE layer (Megatron-Core's
/// all-to-all dispatcher reads the split sizes before its dispatch), schedule bookkeeping per pipeline step,
/// and per-iteration work before the optimizer step. Each is charged on the compute stream (the unit waits);
/// every parameter is 0 unless its source gives a figure, and a calibration says what it was fitted to.
class SoftwareStackModel {
 public:
  /// Reads a model file ("kind": "software-stack"); every parameter set needs a cited source.
  static SoftwareStackModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  core::Seconds per_layer_pass() const { return per_layer_pass_; }                ///< s
  core::Seconds per_moe_layer_forward() const { return per_moe_layer_forward_; }  ///< s
  core::Seconds per_step() const { return per_step_; }                            ///< s
  core::Seconds per_iteration() const { return per_iteration_; }                  ///< s
  /// One line for reports: "megatron-core-te: per layer pass 0 s, ...".
  std::string describe() const;

 private:
  std::string name_;
  std::string description_;
  core::Seconds per_layer_pass_{0.0};
  core::Seconds per_moe_layer_forward_{0.0};
  core::Seconds per_step_{0.0};
  core::Seconds per_iteration_{0.0};
  nlohmann::json resolved_;
};

}  // namespace zs::hw
