// Predicted-against-published errors counted once for every validation table.
#include "scenario/error_summary.hpp"

#include <algorithm>
#include <cmath>

namespace zs::scenario {

ErrorSummary summarize_errors(const std::vector<std::optional<double>>& errors, double row_tolerance) {
  ErrorSummary s;
  s.rows = errors.size();
  double sum = 0;
  for (const auto& error : errors) {
    if (!error) continue;
    ++s.predicted;
    const double e = std::abs(*error);
    sum += e;
    s.max_abs_error = std::max(s.max_abs_error, e);
    if (e <= row_tolerance) ++s.within;
  }
  s.mean_abs_error = s.predicted > 0 ? sum / double(s.predicted) : 0.0;
  return s;
}

}  // namespace zs::scenario
