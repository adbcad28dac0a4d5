// Gradient compression on the data-parallel wire: 16-bit casts, int8 with per-block scales, top-k
// sparsification and PowerSGD, as the collectives and compute ops one gradient reduction becomes.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/choice_names.hpp"
#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

enum class CompressionScheme : uint8_t {
  kNone,      ///< gradients reduced as held
  kBf16,      ///< fp32 gradients cast to bf16 for the reduction (half the bytes), back to fp32 after
  kFp16,      ///< the same in fp16
  kInt8,      ///< int8 with one fp32 scale per block of `block` elements, reduced in two phases
  kTopK,      ///< the largest `fraction` of each rank's gradients (value and 4-byte index), all-gathered
  kPowerSgd,  ///< PowerSGD of rank `rank`: two all-reduces of the low-rank factors instead of one
};

/// The names a plan's gradient_compression gives its schemes: none, bf16, fp16, int8, top-k, powersgd.
const core::ChoiceNames<CompressionScheme>& compression_schemes();

/// A plan's gradient compression (its "gradient_compression" section; left out, none).
struct GradientCompression {
  CompressionScheme scheme = CompressionScheme::kNone;
  double fraction = 0;  ///< top-k: share of each rank's gradient elements sent, (0, 1]
  uint32_t rank = 0;    ///< powersgd: rank of the factors
  uint32_t block = 0;   ///< int8: elements per fp32 scale

  /// The keys of the section (type "workload.megatron.gradient_compression").
  static const core::ParamTable& params();
  /// Reads the section; each scheme's own key is required with it and refused without it.
  static GradientCompression from_params(core::ParamReader& section);
  /// Whether the scheme keeps an error-feedback residual of every gradient element (4 B each): top-k and
  /// PowerSGD, as their papers and implementations do.
  bool keeps_residual() const {
    return scheme == CompressionScheme::kTopK || scheme == CompressionScheme::kPowerSgd;
  }
  /// Whether it replaces a reduce-scatter (ZeRO stages 2 and 3) as well as an all-reduce: the casts and
  /// int8 do (as Megatron-LM's bf16 reduction and ZeRO++'s quantized gradients); top-k and PowerSGD
  /// reduce whole gradients (PyTorch DDP communication hooks), so they need zero_stage 0 or 1.
  bool shards() const { return scheme != CompressionScheme::kTopK && scheme != CompressionScheme::kPowerSgd; }
  /// One phrase for reports: "top-k 1%", "PowerSGD rank 4", "int8 (blocks of 256)", "" for none.
  std::string describe() const;
};

/// One gradient reduction to compress: `elements` gradients of `gradient_bytes` bytes each, reduced over
/// the `group` ranks of the communicator `axis` by `kind` (all-reduce, or reduce-scatter under ZeRO 2 and
/// 3). PowerSGD treats them as `matrices` weight matrices of `rows` rows each (a transformer's linear
/// weights all have the hidden width on one side) with elements / rows columns in all.
struct GradientReduction {
  CollectiveKind kind = CollectiveKind::kAllReduce;
  std::string axis;
  double elements = 0;
  double gradient_bytes = 4;
  uint32_t group = 1;
  double matrices = 1;
  double rows = 1;
};

/// One step of a compressed reduction: a compute op (on the compute stream before the first collective,
/// on the data-parallel stream after it) or a collective, in order.
struct CompressionStep {
  std::string name;
  std::variant<ComputeOp, CollectiveOp> body;
};

/// The steps `compression` makes of `reduction`; for none, the one collective of elements x
/// gradient_bytes. The closed forms (n elements of g bytes, a group of d ranks):
/// - bf16/fp16: cast n (read g, write 2 B), the collective of 2n B, cast back what the rank keeps.
/// - int8, blocks of B: c = 1 + 4/B B per element; quantize n (two passes over g, write c), reduce-scatter
///   n c B, dequantize and sum the d shards of n/d (read n c, write n/d x g), and for an all-reduce
///   requantize the n/d sum, all-gather n c B and dequantize n.
/// - top-k, fraction k: add the residual and select (read g twice, read and write the 4 B residual, write
///   k n pairs of g + 4 B), all-gather d k n (g + 4) B, zero the dense gradient and scatter-add the d k n
///   pairs (read g + 4, read and write g each).
/// - PowerSGD, rank r, M matrices of h rows: R = M h rows and C = n / h columns in all; add the residual
///   (read g, read and write 4 B each), P = G Q (2 n r FLOP), all-reduce P (4 R r B), orthogonalize P (2 h
///   r^2 FLOP per matrix), Q = G^T P (2 n r FLOP), all-reduce Q (4 C r B), G ~ P Q^T and the new residual
///   (2 n r FLOP); the products in fp32 on the unit's vector units (PyTorch's default without TF32).
std::vector<CompressionStep> compressed_reduction(const GradientCompression& compression,
                                                  const GradientReduction& reduction);

}  // namespace zs::workload
