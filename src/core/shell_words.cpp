// Shell quoting and comment-safe text for generated scripts.
#include "core/shell_words.hpp"

#include <stdexcept>

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

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// Reads the quoted part of a word that starts at text[at] (a quote), appending it to `word`; returns
/// the index after the closing quote.
size_t read_quoted(std::string_view text, size_t at, std::string& word) {
  const char quote = text[at];
  for (size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == quote) return i + 1;
    if (quote == '"' && text[i] == '\\' && i + 1 < text.size() &&
        (text[i + 1] == '"' || text[i + 1] == '\\')) {
      word += text[++i];
      continue;
    }
    word += text[i];
  }
  throw std::invalid_argument(std::string("a ") + quote + " quote is not closed");
}

}  // namespace

std::vector<std::string> split_shell_words(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      i += 2;  // a continued line
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[i + 1];  // an escaped character, as itself
      in_word = true;
      i += 2;
    } else if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '#' && !in_word) {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '\'' || c == '"') {
      i = read_quoted(text, i, word);
      in_word = true;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace zs::core
