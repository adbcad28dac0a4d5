// Data types and kinds of work of foreign Chakra compute nodes.
#include "chakra/compute_kind.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>
#include <utility>

#include "chakra/chakra_attributes.hpp"

namespace zs::chakra {
namespace {

/// PyTorch's scalar type names (c10::ScalarType) of the floating formats zettasim models.
constexpr std::array<std::pair<std::string_view, core::Dtype>, 9> kTorchTypes{{
    {"BFloat16", core::Dtype::kBf16},
    {"Half", core::Dtype::kFp16},
    {"Float", core::Dtype::kFp32},
    {"Double", core::Dtype::kFp64},
    {"Float8_e4m3fn", core::Dtype::kFp8},
    {"Float8_e5m2", core::Dtype::kFp8},
    {"Float8_e4m3fnuz", core::Dtype::kFp8},
    {"Float8_e5m2fnuz", core::Dtype::kFp8},
    {"Float4_e2m1fn_x2", core::Dtype::kFp4},
}};

/// Substrings of op and kernel names (lower case) that mark matrix work.
constexpr std::array<std::string_view, 16> kMatrixOps{
    "aten::mm",     "aten::bmm",        "aten::addmm",  "aten::baddbmm", "aten::addbmm",       "aten::matmul",
    "aten::linear", "aten::_scaled_mm", "aten::einsum", "aten::conv",    "aten::_convolution", "attention",
    "gemm",         "cutlass",          "xmma",         "cublas"};

/// Substrings of GPU kernel names (lower case) that mark element-wise, reduction or normalization work.
constexpr std::array<std::string_view, 9> kVectorKernels{
    "elementwise", "vectorized", "reduce", "softmax", "norm", "copy", "fill", "dropout", "adam"};

std::optional<core::Dtype> first_float_input(const std::string& types) {
  constexpr std::string_view kPrefix = "Tensor(c10::";
  for (size_t at = types.find(kPrefix); at != std::string::npos; at = types.find(kPrefix, at + 1)) {
    const size_t begin = at + kPrefix.size(), end = types.find(')', begin);
    if (end == std::string::npos) break;
    const std::string_view name = std::string_view(types).substr(begin, end - begin);
    for (const auto& [torch, dtype] : kTorchTypes)
      if (name == torch) return dtype;
  }
  return std::nullopt;
}

std::optional<core::WorkKind> work_of(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (text.empty()) return std::nullopt;
  for (std::string_view m : kMatrixOps)
    if (text.find(m) != std::string::npos) return core::WorkKind::kMatrix;
  if (text.find("aten::") != std::string::npos) return core::WorkKind::kVector;
  for (std::string_view v : kVectorKernels)
    if (text.find(v) != std::string::npos) return core::WorkKind::kVector;
  return std::nullopt;
}

}  // namespace

ComputeKind compute_kind_of(const ChakraProtoMsg::Node& node, const std::string& file,
                            const std::string& path) {
  ComputeKind out;
  out.dtype = first_float_input(node.inputs().types());
  const auto schema = string_attribute(node.attr(), "op_schema", file, path);
  out.work = work_of(node.name() + " " + schema.value_or(""));
  return out;
}

}  // namespace zs::chakra
