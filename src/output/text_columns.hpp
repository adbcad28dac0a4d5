// Plain-text report helpers for the command-line tools: padded columns and formatted numbers.
#pragma once

#include <cstdio>
#include <string>

namespace zs::output {

/// `text` padded with spaces to `width` characters, with at least one space after it.
inline std::string column(std::string text, size_t width) {
  text += std::string(text.size() < width ? width - text.size() : 1, ' ');
  return text;
}

/// `value` printed with a printf format (default: 4 significant digits).
inline std::string format_number(double value, const char* format = "%.4g") {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

/// A signed error or change as a percentage with one decimal: 0.053 -> "+5.3%".
inline std::string signed_percent(double fraction) {
  return format_number(100.0 * fraction, "%+.1f%%");
}

}  // namespace zs::output
