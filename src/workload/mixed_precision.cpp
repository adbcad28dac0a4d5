// Bytes and dtypes of the fp8 mixed-precision recipes.
#include "workload/mixed_precision.hpp"

namespace zs::workload {

std::string_view to_string(Fp8Recipe recipe) {
  switch (recipe) {
    case Fp8Recipe::kNone:
      return "none";
    case Fp8Recipe::kTransformerEngine:
      return "transformer-engine";
    case Fp8Recipe::kDeepSeekV3:
      return "deepseek-v3";
  }
  return "?";
}

double MixedPrecision::linear_weight_bytes() const {
  return fp8() ? kFp8Bytes : core::bytes_per_element(model_dtype_);
}

double MixedPrecision::saved_linear_input_bytes() const {
  switch (recipe_) {
    case Fp8Recipe::kNone:
      return kHalfBytes;
    case Fp8Recipe::kTransformerEngine:
      return kFp8Bytes;
    case Fp8Recipe::kDeepSeekV3:
      return kFp8Bytes + kTileScaleBytes;
  }
  return kHalfBytes;
}

double MixedPrecision::saved_attention_output_bytes() const {
  return recipe_ == Fp8Recipe::kDeepSeekV3 ? kE5M6Bytes + kTileScaleBytes : saved_linear_input_bytes();
}

double MixedPrecision::dispatch_bytes() const {
  return recipe_ == Fp8Recipe::kDeepSeekV3 ? kFp8Bytes + kTileScaleBytes
                                           : core::bytes_per_element(model_dtype_);
}

}  // namespace zs::workload
