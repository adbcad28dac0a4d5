// The error raised for bad user input: it names the file, the JSON path and what was expected.
#pragma once

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace zs::core {

/// `text` with its control characters written as \n, \t or \xHH: one line of a message whatever the
/// input echoed in it (idempotent: the result has none).
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out;
}

/// `text` as one line of bounded length: one_line, then every run of over 240 characters without a space
/// (a long value, key or path echoed from the input) shortened to its first 160 and last 60 characters,
/// and a line still over 2,000 characters to its first 1,500 and last 400, each cut saying how many
/// characters it left out. A message about a 100 KB value stays readable and says where and what.
inline std::string bounded_line(const std::string& text) {
  constexpr size_t kMaxRun = 240, kRunHead = 160, kRunTail = 60;
  constexpr size_t kMaxLine = 2000, kLineHead = 1500, kLineTail = 400;
  auto cut = [](const std::string& s, size_t head, size_t tail) {
    return s.substr(0, head) + "...(" + std::to_string(s.size() - head - tail) + " characters left out)..." +
           s.substr(s.size() - tail);
  };
  const std::string line = one_line(text);
  std::string out;
  out.reserve(std::min(line.size(), kMaxLine + 100));
  for (size_t at = 0; at < line.size();) {
    const size_t space = line.find(' ', at);
    const size_t end = space == std::string::npos ? line.size() : space;
    const std::string run = line.substr(at, end - at);
    out += run.size() > kMaxRun ? cut(run, kRunHead, kRunTail) : run;
    if (end < line.size()) out += ' ';
    at = end + 1;
  }
  return out.size() > kMaxLine ? cut(out, kLineHead, kLineTail) : out;
}

/// Bad input (malformed file, unknown key, wrong unit, impossible configuration).
/// The command-line front end prints what() and exits with code 2. what() is always one line: control
/// characters from any part (a file name, a key, a quoted value) are written as \n, \t or \xHH, so no
/// echoed input can start a second, forged line; and it is bounded (bounded_line), however long the
/// echoed input.
class InputError : public std::runtime_error {
 public:
  /// `json_path` is a JSON Pointer ("/machine/models/gpu"); empty when the whole file is meant.
  InputError(std::string file, std::string json_path, const std::string& message)
      : std::runtime_error(compose(file, json_path, message)),
        file_(std::move(file)),
        json_path_(std::move(json_path)),
        message_(bounded_line(message)) {}

  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  /// What was expected, without the file and path.
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, const std::string& path, const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (!path.empty()) out += ": " + path;
    return bounded_line(out + ": " + message);
  }

  std::string file_;
  std::string json_path_;
  std::string message_;
};

}  // namespace zs::core
