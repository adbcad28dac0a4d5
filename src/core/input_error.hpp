// The error raised for bad user input: it names the file, the JSON path and what was expected.
#pragma once

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

/// Bad input (malformed file, unknown key, wrong unit, impossible configuration).
/// The command-line front end prints what() and exits with code 2. what() is always one line: control
/// characters from any part (a file name, a key, a quoted value) are written as \n, \t or \xHH, so no
/// echoed input can start a second, forged line.
class InputError : public std::runtime_error {
 public:
  /// `json_path` is a JSON Pointer ("/machine/models/gpu"); empty when the whole file is meant.
  InputError(std::string file, std::string json_path, const std::string& message)
      : std::runtime_error(compose(file, json_path, message)),
        file_(std::move(file)),
        json_path_(std::move(json_path)),
        message_(one_line(message)) {}

  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  /// What was expected, without the file and path.
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, const std::string& path, const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (!path.empty()) out += ": " + path;
    return one_line(out + ": " + message);
  }

  std::string file_;
  std::string json_path_;
  std::string message_;
};

}  // namespace zs::core
