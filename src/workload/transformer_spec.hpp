// A dense decoder-only transformer (GPT-style): its shape, parameter count and FLOP accounting.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/dtype.hpp"
#include "core/json_object.hpp"
#include "core/units.hpp"

namespace zs::workload {

/// Shapes follow Megatron-LM: per layer, attention (QKV and output projections) and a two-matrix
/// FFN; learned position embeddings; the output layer shares the input embedding's weights.
struct TransformerSpec {
  std::string name;
  uint32_t layers = 0;
  uint32_t hidden = 0;  ///< h
  uint32_t heads = 0;
  uint32_t ffn_hidden = 0;  ///< f, usually 4h
  uint32_t vocab = 0;       ///< V
  uint32_t seq_len = 0;     ///< s
  core::Dtype dtype = core::Dtype::kBf16;

  /// Reads a model file ("kind": "transformer").
  static TransformerSpec from_json(core::JsonObject& json);
  nlohmann::json to_json() const;

  /// 4h^2 + 2hf (weights) + 9h + f (biases, two layer norms): 12h^2 + 13h when f = 4h.
  double params_per_layer() const;
  /// V*h + s*h (token and position embeddings) + 2h (final layer norm).
  double embedding_params() const;
  double total_params() const;

  /// Forward matmul FLOPs of one layer for `sequences` sequences: 2*b*s*(4h^2 + 2hf) + 4*b*s^2*h.
  /// With f = 4h this is Megatron-LM's 24bsh^2 (1 + s/(6h)). Element-wise work is not counted.
  core::Flops layer_forward_flops(uint64_t sequences) const;
  /// Forward FLOPs of the output layer (logits): 2*b*s*h*V.
  core::Flops logits_forward_flops(uint64_t sequences) const;
  /// Model FLOPs of forward + backward (backward = 2x forward), no recomputation.
  core::Flops training_flops(uint64_t sequences) const;
};

}  // namespace zs::workload
