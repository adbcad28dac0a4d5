// Predicted-against-published errors counted once for every validation table.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace zs::scenario {

/// How a table's predictions compare with its published figures.
struct ErrorSummary {
  size_t rows = 0;
  size_t predicted = 0;       ///< rows with a prediction
  size_t within = 0;          ///< rows whose |error| is within the row tolerance
  double mean_abs_error = 0;  ///< over the predicted rows
  double max_abs_error = 0;
  /// Every row predicted and within, and the mean absolute error at most `mean_tolerance`.
  bool holds(double mean_tolerance) const { return within == rows && mean_abs_error <= mean_tolerance; }
};

/// Counts one error per row (nullopt: no prediction) against |error| <= row_tolerance.
ErrorSummary summarize_errors(const std::vector<std::optional<double>>& errors, double row_tolerance);

}  // namespace zs::scenario
