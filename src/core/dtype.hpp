// Numeric formats of compute work (fp8 ... fp64) and the two kinds of work (matrix engine, vector units).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/choice_names.hpp"

namespace zs::core {

/// Numeric format of an operation's arithmetic.
enum class Dtype { kFp4, kFp8, kBf16, kFp16, kTf32, kFp32, kFp64 };

/// Matrix work runs on tensor/matrix engines; vector work on general vector units.
enum class WorkKind { kMatrix, kVector };

std::string_view to_string(Dtype d);
std::optional<Dtype> parse_dtype(std::string_view s);
/// The list of known dtype names, for error messages ("fp4, fp8, ...").
std::string known_dtypes();
/// Bytes per element of the format (fp4 is 0.5).
double bytes_per_element(Dtype d);

/// The work kinds' names: "matrix", "vector".
const ChoiceNames<WorkKind>& work_kinds();
std::string_view to_string(WorkKind k);
std::optional<WorkKind> parse_work_kind(std::string_view s);

}  // namespace zs::core
