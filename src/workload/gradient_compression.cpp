// Gradient compression: reading a plan's section, and the ops one compressed reduction takes.
#include "workload/gradient_compression.hpp"

#include <cstdio>

namespace zs::workload {

const core::ChoiceNames<CompressionScheme>& compression_schemes() {
  static const core::ChoiceNames<CompressionScheme> names({{CompressionScheme::kNone, "none"},
                                                           {CompressionScheme::kBf16, "bf16"},
                                                           {CompressionScheme::kFp16, "fp16"},
                                                           {CompressionScheme::kInt8, "int8"},
                                                           {CompressionScheme::kTopK, "top-k"},
                                                           {CompressionScheme::kPowerSgd, "powersgd"}});
  return names;
}

const core::ParamTable& GradientCompression::params() {
  using core::Param;
  static const core::ParamTable table(
      "workload.megatron.gradient_compression",
      "how data-parallel gradient reductions are compressed on the wire",
      {Param::choice("scheme", compression_schemes().names(),
                     "none; bf16 or fp16 (fp32 gradients cast for the reduction); int8 (per-block scales, "
                     "reduce-scatter then all-gather of quantized data); top-k (values and indices "
                     "all-gathered, error feedback); powersgd (two all-reduces of low-rank factors, error "
                     "feedback)")
           .noun("gradient compression scheme"),
       Param::number("fraction", 1e-9, 1.0, "top-k: share of each rank's gradient elements sent").optional(),
       Param::integer("rank", 1, 1024, "powersgd: rank of the low-rank factors").optional(),
       Param::integer("block", 1, 1 << 20, "int8: gradient elements per fp32 scale").optional()});
  return table;
}

namespace {

/// The scheme's own key, or "" for a scheme without one.
const char* own_key(CompressionScheme s) {
  switch (s) {
    case CompressionScheme::kTopK:
      return "fraction";
    case CompressionScheme::kPowerSgd:
      return "rank";
    case CompressionScheme::kInt8:
      return "block";
    default:
      return "";
  }
}

}  // namespace

GradientCompression GradientCompression::from_params(core::ParamReader& r) {
  GradientCompression c;
  c.scheme = r.get_choice("scheme", compression_schemes());
  const std::string scheme(compression_schemes().name(c.scheme));
  for (const char* key : {"fraction", "rank", "block"})
    if (r.has(key) && std::string(own_key(c.scheme)) != key)
      throw r.error(key, std::string(key) + " does not apply to scheme \"" + scheme + "\"");
  if (c.scheme == CompressionScheme::kTopK) c.fraction = r.need<double>("fraction", "with scheme \"top-k\"");
  if (c.scheme == CompressionScheme::kPowerSgd)
    c.rank = static_cast<uint32_t>(r.need<int64_t>("rank", "with scheme \"powersgd\""));
  if (c.scheme == CompressionScheme::kInt8)
    c.block = static_cast<uint32_t>(r.need<int64_t>("block", "with scheme \"int8\""));
  return c;
}

std::string GradientCompression::describe() const {
  char buf[64];
  switch (scheme) {
    case CompressionScheme::kNone:
      return "";
    case CompressionScheme::kBf16:
      return "bf16";
    case CompressionScheme::kFp16:
      return "fp16";
    case CompressionScheme::kInt8:
      return "int8 (blocks of " + std::to_string(block) + ")";
    case CompressionScheme::kTopK:
      std::snprintf(buf, sizeof buf, "top-k %.4g%%", 100.0 * fraction);
      return buf;
    case CompressionScheme::kPowerSgd:
      return "PowerSGD rank " + std::to_string(rank);
  }
  return "";
}

namespace {

/// An element-wise op over fp32 gradients: `flops` FLOP, `bytes` B of HBM traffic.
ComputeOp vector_op(double flops, double bytes) {
  return ComputeOp{core::Flops(flops), core::Bytes(bytes), core::Dtype::kFp32, core::WorkKind::kVector, 1};
}

CollectiveOp collective(CollectiveKind kind, const GradientReduction& r, double bytes) {
  return CollectiveOp{kind, r.axis, core::Bytes(bytes)};
}

std::vector<CompressionStep> cast_16(const GradientReduction& r) {
  const double n = r.elements, g = r.gradient_bytes;
  const double kept = r.kind == CollectiveKind::kAllReduce ? n : n / r.group;
  return {{"compress-gradients", vector_op(n, n * (g + 2))},
          {"", collective(r.kind, r, 2 * n)},
          {"decompress-gradients", vector_op(kept, kept * (2 + g))}};
}

std::vector<CompressionStep> int8(const GradientReduction& r, uint32_t block) {
  const double n = r.elements, g = r.gradient_bytes, c = 1.0 + 4.0 / block, shard = n / r.group;
  std::vector<CompressionStep> steps = {{"quantize-gradients", vector_op(2 * n, n * (2 * g + c))},
                                        {"", collective(CollectiveKind::kReduceScatter, r, n * c)}};
  if (r.kind != CollectiveKind::kAllReduce) {
    steps.push_back({"dequantize-sum-gradients", vector_op(n, n * c + shard * g)});
    return steps;
  }
  steps.push_back({"dequantize-sum-requantize-gradients", vector_op(n + 2 * shard, n * c + shard * (g + c))});
  steps.push_back({"", collective(CollectiveKind::kAllGather, r, n * c)});
  steps.push_back({"dequantize-gradients", vector_op(n, n * (c + g))});
  return steps;
}

std::vector<CompressionStep> top_k(const GradientReduction& r, double fraction) {
  const double n = r.elements, g = r.gradient_bytes, pair = g + 4.0, kept = fraction * n;
  const double gathered = r.group * kept;
  return {{"select-top-k-gradients", vector_op(3 * n, n * (2 * g + 8) + kept * pair)},
          {"", collective(CollectiveKind::kAllGather, r, gathered * pair)},
          {"scatter-add-top-k-gradients", vector_op(gathered, n * g + gathered * (pair + 2 * g))}};
}

std::vector<CompressionStep> power_sgd(const GradientReduction& r, uint32_t rank) {
  const double n = r.elements, g = r.gradient_bytes, k = rank;
  const double rows = r.matrices * r.rows, columns = n / r.rows;
  const double factors = 4.0 * k * (rows + columns);
  return {{"add-residual-gradients", vector_op(n, n * (g + 8))},
          {"powersgd-p", vector_op(2 * n * k, n * g + factors)},
          {"", collective(CollectiveKind::kAllReduce, r, 4.0 * rows * k)},
          {"powersgd-orthogonalize-p", vector_op(2.0 * rows * k * k, 8.0 * rows * k)},
          {"powersgd-q", vector_op(2 * n * k, n * g + factors)},
          {"", collective(CollectiveKind::kAllReduce, r, 4.0 * columns * k)},
          {"powersgd-decompress", vector_op(2 * n * k, factors + n * (g + 8))}};
}

}  // namespace

std::vector<CompressionStep> compressed_reduction(const GradientCompression& c, const GradientReduction& r) {
  switch (c.scheme) {
    case CompressionScheme::kNone:
      break;
    case CompressionScheme::kBf16:
    case CompressionScheme::kFp16:
      return cast_16(r);
    case CompressionScheme::kInt8:
      return int8(r, c.block);
    case CompressionScheme::kTopK:
      return top_k(r, c.fraction);
    case CompressionScheme::kPowerSgd:
      return power_sgd(r, c.rank);
  }
  return {{"", collective(r.kind, r, r.elements * r.gradient_bytes)}};
}

}  // namespace zs::workload
