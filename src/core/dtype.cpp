// Names and sizes of numeric formats.
#include "core/dtype.hpp"

#include <array>
#include <utility>

namespace zs::core {
namespace {

struct DtypeInfo {
  Dtype dtype;
  std::string_view name;
  double bytes;
};

constexpr std::array<DtypeInfo, 7> kDtypes{{{Dtype::kFp4, "fp4", 0.5},
                                            {Dtype::kFp8, "fp8", 1.0},
                                            {Dtype::kBf16, "bf16", 2.0},
                                            {Dtype::kFp16, "fp16", 2.0},
                                            {Dtype::kTf32, "tf32", 4.0},
                                            {Dtype::kFp32, "fp32", 4.0},
                                            {Dtype::kFp64, "fp64", 8.0}}};

}  // namespace

std::string_view to_string(Dtype d) {
  for (const auto& i : kDtypes)
    if (i.dtype == d) return i.name;
  return "?";
}

std::optional<Dtype> parse_dtype(std::string_view s) {
  for (const auto& i : kDtypes)
    if (i.name == s) return i.dtype;
  return std::nullopt;
}

std::string known_dtypes() {
  std::string out;
  for (const auto& i : kDtypes) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

double bytes_per_element(Dtype d) {
  for (const auto& i : kDtypes)
    if (i.dtype == d) return i.bytes;
  return 0.0;
}

const ChoiceNames<WorkKind>& work_kinds() {
  static const ChoiceNames<WorkKind> names{{WorkKind::kMatrix, "matrix"}, {WorkKind::kVector, "vector"}};
  return names;
}

std::string_view to_string(WorkKind k) {
  return work_kinds().name(k);
}

std::optional<WorkKind> parse_work_kind(std::string_view s) {
  return work_kinds().find(s);
}

}  // namespace zs::core
