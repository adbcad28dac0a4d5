// Mixed-precision recipes with fp8 matrix products: which products run in fp8 and the bytes each keeps.
#pragma once

#include <string_view>

#include "core/dtype.hpp"

namespace zs::workload {

/// How a plan uses fp8 (plan key "fp8"):
/// - kNone: every matrix product in the model's dtype.
/// - kTransformerEngine: NVIDIA Transformer Engine as Megatron-LM runs it (--fp8-format hybrid,
///   per-tensor scaling): the linear layers' products (attention projections, dense FFN, routed and
///   shared experts) in fp8, forward and both backward products; the embedding, output layer, attention
///   core (scores, softmax, values), norms and router stay in the model's dtype. Each linear weight has
///   fp8 copies for the iteration (rowwise and transposed); the linear layers' inputs are saved for
///   backward in fp8. Optimizer state as without fp8 (fp32 master weight and moments).
/// - kDeepSeekV3: DeepSeek-V3's recipe (DeepSeek-AI, arXiv:2412.19437, section 3.3): the same products
///   in fp8 with fine-grained scales (an fp32 per 1 x 128 activation tile); Adam's moments in bf16; the
///   linear layers' inputs cached in fp8 (the attention output projection's in E5M6, 1.5 B); the MoE
///   SwiGLU's inputs cached in fp8 and its output recomputed in backward; the expert dispatch sent in fp8
///   with its scales (forward, and the gradients sent to the experts in backward), the combine in bf16.
enum class Fp8Recipe { kNone, kTransformerEngine, kDeepSeekV3 };

std::string_view to_string(Fp8Recipe recipe);

/// The bytes and dtypes a recipe gives each kind of tensor, for a model of dtype `model_dtype`.
/// Without fp8 every answer is the model's: 2 B activations and weights, fp32 Adam moments.
class MixedPrecision {
 public:
  MixedPrecision(Fp8Recipe recipe, core::Dtype model_dtype) : recipe_(recipe), model_dtype_(model_dtype) {}

  Fp8Recipe recipe() const { return recipe_; }
  bool fp8() const { return recipe_ != Fp8Recipe::kNone; }
  /// The dtype of the linear layers' products (fp8 with a recipe, else the model's).
  core::Dtype linear_dtype() const { return fp8() ? core::Dtype::kFp8 : model_dtype_; }
  /// Bytes of a linear weight element as its products read it: the fp8 copy with a recipe, B.
  double linear_weight_bytes() const;
  /// Bytes per element of a linear layer's input saved for its backward product, B (activation memory).
  double saved_linear_input_bytes() const;
  /// Bytes per element of the attention output projection's saved input, B.
  double saved_attention_output_bytes() const;
  /// Whether the MoE SwiGLU keeps only its inputs (in fp8) and recomputes its output in backward.
  bool recomputes_moe_swiglu() const { return recipe_ == Fp8Recipe::kDeepSeekV3; }
  /// Bytes of the fp8 copies of each linear weight held for the iteration (rowwise and transposed:
  /// Hopper's fp8 products read both layouts), B per parameter.
  double weight_copy_bytes() const { return fp8() ? kFp8CopiesBytes : 0.0; }
  /// HBM bytes written per element of an fp8 product's activation operand by its cast (rowwise and
  /// transposed fp8 copies), B.
  double cast_bytes() const { return fp8() ? kFp8CopiesBytes : 0.0; }
  /// Bytes of one Adam moment, B (fp32; bf16 in DeepSeek-V3's recipe).
  double moment_bytes() const { return recipe_ == Fp8Recipe::kDeepSeekV3 ? 2.0 : 4.0; }
  /// Optimizer state per parameter: fp32 master weight and two moments, B.
  double optimizer_bytes() const { return kMasterWeightBytes + 2.0 * moment_bytes(); }
  /// Bytes per element of the expert dispatch's activations, scales included, B.
  double dispatch_bytes() const;

  /// An fp32 master weight, B.
  static constexpr double kMasterWeightBytes = 4.0;
  /// The 16-bit activations and weights every recipe keeps outside fp8, B.
  static constexpr double kHalfBytes = 2.0;
  /// An fp8 element, B.
  static constexpr double kFp8Bytes = 1.0;
  /// DeepSeek-V3's fine-grained scaling: one fp32 scale per 1 x 128 tile of activations, B per element.
  static constexpr double kTileScaleBytes = 4.0 / 128.0;
  /// DeepSeek-V3's E5M6 format (12 bits) for the input of the linear layer after attention, B.
  static constexpr double kE5M6Bytes = 1.5;
  /// Two fp8 copies (rowwise and transposed) of a weight or an activation operand, B per element.
  static constexpr double kFp8CopiesBytes = 2.0 * kFp8Bytes;
  /// Transformer Engine's delayed scaling: an fp32 amax per scaled tensor, B.
  static constexpr double kAmaxBytes = 4.0;
  /// Amaxes an fp8 product records in forward (input, weight, output) and in backward (output and input
  /// gradients): the rows of Transformer Engine's forward and backward amax histories per product.
  static constexpr double kForwardAmaxes = 3.0, kBackwardAmaxes = 2.0;

 private:
  Fp8Recipe recipe_;
  core::Dtype model_dtype_;
};

}  // namespace zs::workload
