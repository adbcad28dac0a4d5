// Safe file-name components and one-line quoting of user text.
#include "core/file_name.hpp"

#include <cstdio>

namespace zs::core {
namespace {

bool portable(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-';
}

}  // namespace

std::optional<std::string> file_name_problem(std::string_view name) {
  if (name.empty()) return "an empty name";
  if (name.size() > kMaxFileNameLength) return "a name of " + std::to_string(name.size()) + " characters";
  if (name.front() == '.' || name.front() == '-')
    return "a name starting with '" + std::string(1, name.front()) + "'";
  for (char c : name)
    if (!portable(c)) return "a name containing " + quoted_for_message(std::string_view(&c, 1));
  return std::nullopt;
}

std::string quoted_for_message(std::string_view text, size_t max_bytes) {
  std::string out = "\"";
  const size_t shown = std::min(text.size(), max_bytes);
  for (size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
  if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace zs::core
