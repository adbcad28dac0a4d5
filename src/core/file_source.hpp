// Where input files come from: the disk, or a bundle of files embedded in the binary.
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace zs::core {

class JsonObject;

/// Reads input files by path. Paths are plain strings so that error messages show them as given.
class FileSource {
 public:
  virtual ~FileSource() = default;
  /// The file's text, or nullopt if it does not exist or cannot be read.
  virtual std::optional<std::string> read(const std::string& path) const = 0;
  /// Whether `path` can be read (by default by reading it; a source that can tell without reading
  /// says so).
  virtual bool exists(const std::string& path) const { return read(path).has_value(); }
  /// Every file on disk read so far (core::absolute_path), sorted: the inputs an output may not replace.
  virtual std::vector<std::string> files_read() const { return {}; }

  /// Reads and parses a JSON file; a missing file or malformed text is an InputError naming the file.
  nlohmann::json read_json(const std::string& path) const;

  /// The text of the file that the string at `key` of `referrer` names (relative to the referrer's
  /// file); `path` receives the resolved path. A missing or unreadable file is refused at that key,
  /// naming the path tried, so the user sees which of their keys named it.
  std::string read_named(JsonObject& referrer, std::string_view key, std::string& path) const;
  /// read_named, parsed as JSON (malformed text is refused in the named file itself).
  nlohmann::json read_json_named(JsonObject& referrer, std::string_view key, std::string& path) const;
};

/// Files on the local disk.
class DiskFileSource final : public FileSource {
 public:
  std::optional<std::string> read(const std::string& path) const override;
  bool exists(const std::string& path) const override;
  std::vector<std::string> files_read() const override;

 private:
  mutable std::mutex read_mutex_;
  mutable std::set<std::string> read_;
};

/// Files held in memory, keyed by normalized relative path (used for the embedded default scenario).
class BundledFileSource final : public FileSource {
 public:
  explicit BundledFileSource(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  std::optional<std::string> read(const std::string& path) const override;

 private:
  std::map<std::string, std::string> files_;
};

/// Files held in memory in front of another source: a path found here shadows the other's (used for
/// scenarios a command composes, such as `zettasim validate`'s rows, which refer to shipped models).
class OverlayFileSource final : public FileSource {
 public:
  OverlayFileSource(const FileSource& base, std::map<std::string, std::string> files)
      : base_(base), files_(std::move(files)) {}
  std::optional<std::string> read(const std::string& path) const override;
  std::vector<std::string> files_read() const override;

 private:
  const FileSource& base_;
  BundledFileSource files_;
};

/// Resolves `reference` relative to the directory of `including_file` (absolute references stay as
/// they are), normalized lexically ("scenarios/../models/x.json" becomes "models/x.json").
std::string resolve_relative(const std::string& including_file, const std::string& reference);

/// `path` as one absolute, normalized name for the file (symbolic links resolved where they exist): two
/// names of the same file give the same string.
std::string absolute_path(const std::string& path);

}  // namespace zs::core
