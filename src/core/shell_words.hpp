// Words and comments for the shell scripts zettasim writes: every value quoted, no input ends a line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace zs::core {

/// `word` as one shell word: as it is when every character is one the shell never treats specially
/// (letters, digits and _-./=:,+@%), else in single quotes (a quote inside written '\''). A newline or
/// any other byte stays literal inside the quotes, so the result is always exactly one word.
std::string shell_quoted(std::string_view word);

/// `text` for the rest of a "# ..." comment line: control characters written as \n, \t or \xHH
/// (core::one_line), so that no text from an input can end the comment and start a command.
std::string comment_text(std::string_view text);

/// Whether `name` is a shell variable name a script may export ([A-Za-z_][A-Za-z0-9_]*).
bool is_variable_name(std::string_view name);

/// Whether `flag` is a long command-line option written as it is (--[a-z0-9][a-z0-9-]*).
bool is_long_option(std::string_view flag);

/// The words of `text` as a launch script writes an argument list, read without expanding or running
/// anything: words separated by white space, '...' quoting literally, "..." quoting with \" and \\ as
/// escapes, a backslash before a newline joining the lines and before any other character standing for it,
/// and a # at the start of a word commenting out the rest of its line. Throws std::invalid_argument for a
/// quote left open.
std::vector<std::string> split_shell_words(std::string_view text);

}  // namespace zs::core
