// The error raised for bad user input: it names the file, the JSON path and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace zs::core {

/// Bad input (malformed file, unknown key, wrong unit, impossible configuration).
/// The command-line front end prints what() on one line and exits with code 2.
class InputError : public std::runtime_error {
 public:
  /// `json_path` is a JSON Pointer ("/machine/models/gpu"); empty when the whole file is meant.
  InputError(std::string file, std::string json_path, const std::string& message)
      : std::runtime_error(compose(file, json_path, message)),
        file_(std::move(file)),
        json_path_(std::move(json_path)),
        message_(message) {}

  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  /// What was expected, without the file and path.
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, const std::string& path, const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (!path.empty()) out += ": " + path;
    return out + ": " + message;
  }

  std::string file_;
  std::string json_path_;
  std::string message_;
};

}  // namespace zs::core
