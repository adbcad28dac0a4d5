// What a foreign Chakra trace says about a compute node's work: its data type and its kind of op.
#pragma once

#include <optional>
#include <string>

#include "core/dtype.hpp"
#include "et_def.pb.h"

namespace zs::chakra {

/// A compute node's data type and kind of work, as far as the node states them; nullopt where it does
/// not (the importer then assumes bf16 and matrix work, and says so).
struct ComputeKind {
  /// From the first floating-point tensor among the node's inputs (`inputs.types`, as PyTorch's
  /// execution-trace observer writes them, e.g. "Tensor(c10::BFloat16)").
  std::optional<core::Dtype> dtype;
  /// From the op: matrix products, convolutions and attention (aten::mm, aten::linear, GEMM kernels)
  /// are matrix work; other ATen operators and element-wise, reduction and normalization kernels are
  /// vector work. Read from the node's name and its "op_schema" attribute.
  std::optional<core::WorkKind> work;
};

/// The kind of compute node `node` (`file` and `path` name it in errors from malformed attributes).
ComputeKind compute_kind_of(const ChakraProtoMsg::Node& node, const std::string& file,
                            const std::string& path);

}  // namespace zs::chakra
