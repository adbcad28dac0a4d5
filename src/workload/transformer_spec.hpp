// A decoder-only transformer (dense or Mixture-of-Experts): its shape, parameter count and FLOP accounting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/dtype.hpp"
#include "core/json_object.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"

namespace zs::workload {

enum class FfnActivation { kGelu, kSwiglu };   ///< gelu: two matrices (h x f, f x h); swiglu: three
enum class NormKind { kLayerNorm, kRmsNorm };  ///< layernorm: gain and bias (2h); rmsnorm: gain (h)

/// Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values through low-rank projections.
struct MlaSpec {
  uint32_t q_lora_rank = 0;
  uint32_t kv_lora_rank = 0;
  uint32_t qk_nope_head_dim = 0;
  uint32_t qk_rope_head_dim = 0;
  uint32_t v_head_dim = 0;
};

/// Mixture-of-Experts feed-forward: every token goes to `top_k` of `experts` routed experts plus the
/// `shared_experts`; the first `dense_layers` layers keep a dense FFN of ffn_hidden.
struct MoeSpec {
  uint32_t experts = 0;
  uint32_t top_k = 0;
  uint32_t shared_experts = 0;
  uint32_t expert_ffn_hidden = 0;
  uint32_t dense_layers = 0;
  double capacity_factor = 1.0;  ///< tokens an expert accepts, relative to a uniform share
};

/// Parameter accounting, per layer: attention projections (grouped-query when kv_heads < heads, or
/// MLA), two norms, and a dense FFN or MoE experts with their router; plus token embeddings (a
/// second matrix for the output layer when untied), learned position embeddings if any, and a final
/// norm. With the defaults (GELU, biases, LayerNorm, learned positions, tied embeddings) a layer has
/// 4h^2 + 2hf + 9h + f parameters: Megatron-LM's 12h^2 + 13h when f = 4h.
struct TransformerSpec {
  std::string name;
  uint32_t layers = 0;
  uint32_t hidden = 0;  ///< h
  uint32_t heads = 0;
  uint32_t ffn_hidden = 0;  ///< f of dense layers, usually 4h (GELU) or about 8h/3 (SwiGLU)
  uint32_t vocab = 0;       ///< V
  uint32_t seq_len = 0;     ///< s
  core::Dtype dtype = core::Dtype::kBf16;
  uint32_t kv_heads = 0;  ///< 0: as many as heads (multi-head attention)
  /// Width of one query, key or value head, elements; 0: hidden / heads. Models such as Qwen3 set
  /// it apart (heads x head_dim != hidden), which widens the query and output projections.
  uint32_t head_dim = 0;
  FfnActivation ffn_activation = FfnActivation::kGelu;
  bool biases = true;
  /// Dropout during training (after attention, after the FFN and over the attention probabilities), as
  /// GPT-3 and Megatron-LM's defaults have; its masks are kept for backward and its kernels move HBM.
  bool dropout = true;
  /// Attention and FFN read the same normed input and add their outputs to the residual together (GPT-J,
  /// PaLM's "parallel layers"): one norm per layer and, under tensor parallelism, one exchange per layer
  /// each way instead of two.
  bool parallel_blocks = false;
  NormKind norm = NormKind::kLayerNorm;
  bool learned_positions = true;
  bool tied_embeddings = true;
  std::optional<MlaSpec> mla;
  std::optional<MoeSpec> moe;

  /// Reads a model file ("kind": "transformer").
  static TransformerSpec from_json(core::JsonObject& json);
  /// The keys of a model file, declared once.
  static const core::ParamTable& params();
  nlohmann::json to_json() const;

  bool is_moe_layer(uint32_t layer) const { return moe && layer >= moe->dense_layers; }
  /// Parameters of layer `layer` (all experts counted).
  double layer_params(uint32_t layer) const;
  /// Token embeddings (twice when untied), learned position embeddings, final norm.
  double embedding_params() const;
  double total_params() const;
  /// Parameters a token passes through: attention, the dense FFN or top-k + shared experts and the
  /// router, per layer; plus the output layer.
  double active_params() const;

  /// Forward matmul FLOPs of layer `layer` for `sequences` sequences: 2 x tokens x active weights
  /// + attention scores and values 2bs^2 x heads x (qk head dim + v head dim). For the defaults with
  /// f = 4h this is Megatron-LM's 24bsh^2 (1 + s/(6h)). Element-wise work is not counted.
  core::Flops layer_forward_flops(uint32_t layer, uint64_t sequences) const;
  /// The attention part of layer_forward_flops (projections, scores and values).
  core::Flops attention_forward_flops(uint64_t sequences) const;
  /// The feed-forward part of layer_forward_flops (dense FFN or active experts and router).
  core::Flops ffn_forward_flops(uint32_t layer, uint64_t sequences) const;
  /// Attention parameters of one layer (projections, biases, MLA norms).
  double attention_params() const;
  /// The key and value projections' parameters of one layer (weights and biases), 0 with MLA.
  double kv_params() const;
  /// How many tensor-parallel ranks hold each key/value head: tensor_parallel / kv_heads when tensor
  /// parallelism exceeds the key/value heads (each rank then keeps one head, a copy of its group's), else 1.
  uint32_t kv_replicas(uint32_t tensor_parallel) const;
  /// attention_params per tensor-parallel rank, replicated key/value heads included.
  double attention_params_per_rank(uint32_t tensor_parallel) const;
  /// attention_forward_flops per tensor-parallel rank (each shard of `sequences`' tokens, before context
  /// parallelism): the replicated key/value projections run on every rank that holds them.
  core::Flops attention_forward_flops_per_rank(uint64_t sequences, uint32_t tensor_parallel) const;
  /// The score and value products of attention_forward_flops: 2bs^2 x heads x (qk + v head dims).
  core::Flops attention_score_flops(uint64_t sequences) const;
  /// Width of the keys plus values of one token (what context parallelism exchanges), elements.
  double kv_width() const { return key_width() + value_width(); }
  /// Widths of one token's queries, keys, values and attention output (the output projection's
  /// input), all heads, elements: heads or kv_heads x the head widths (MLA: the decompressed heads).
  double query_width() const;
  double key_width() const;
  double value_width() const;
  double attention_output_width() const;
  /// Width of one attention head (head_dim, or hidden / heads), elements.
  double head_width() const { return head_dim != 0 ? double(head_dim) : double(hidden) / heads; }
  /// Parameters of one routed (or shared) expert, and its matmul weights; 0 for a dense model.
  double expert_params() const { return moe ? ffn_params(moe->expert_ffn_hidden) : 0.0; }
  double expert_weights() const { return moe ? ffn_weights(moe->expert_ffn_hidden) : 0.0; }
  /// Weight matrices of an FFN (GELU: up and down; SwiGLU: gate, up and down), and as many f-wide
  /// tensors it keeps per token for backward (GELU: the up projection's output and the activation's;
  /// SwiGLU: the gate's, the up projection's and their product).
  double ffn_matrices() const { return ffn_activation == FfnActivation::kGelu ? 2.0 : 3.0; }
  /// Activation elements an FFN keeps per token for backward, beyond its input: ffn_matrices() f-wide
  /// tensors; for an MoE layer those of the top-k and shared experts.
  double ffn_activation_width(uint32_t layer) const;
  /// Forward FLOPs of the output layer (logits): 2*b*s*h*V.
  core::Flops logits_forward_flops(uint64_t sequences) const;
  /// Model FLOPs of forward + backward (backward = 2x forward), no recomputation.
  core::Flops training_flops(uint64_t sequences) const;

 private:
  double norm_params() const;
  double ffn_params(double width) const;   ///< with biases if any
  double ffn_weights(double width) const;  ///< matmul weights only
  double attention_weights() const;        ///< matmul weights only
  double ffn_block_weights(uint32_t layer, bool all_experts) const;
};

}  // namespace zs::workload
