// Shell quoting and comment-safe text for generated scripts.
#include "core/shell_words.hpp"

#include "core/input_error.hpp"

namespace zs::core {
namespace {

constexpr std::string_view kPlainCharacters =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%";

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::string shell_quoted(std::string_view word) {
  if (!word.empty() && word.find_first_not_of(kPlainCharacters) == std::string_view::npos)
    return std::string(word);
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string comment_text(std::string_view text) {
  return one_line(std::string(text));
}

bool is_variable_name(std::string_view name) {
  if (name.empty() || is_digit(name.front())) return false;
  for (char c : name)
    if (!is_letter(c) && !is_digit(c) && c != '_') return false;
  return true;
}

bool is_long_option(std::string_view flag) {
  if (flag.size() < 3 || !flag.starts_with("--") || flag[2] == '-') return false;
  for (char c : flag.substr(2))
    if (!(c >= 'a' && c <= 'z') && !is_digit(c) && c != '-') return false;
  return true;
}

}  // namespace zs::core
