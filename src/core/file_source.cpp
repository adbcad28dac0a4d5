// Disk and embedded file sources.
#include "core/file_source.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/file_name.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::core {

nlohmann::json FileSource::read_json(const std::string& path) const {
  auto text = read(path);
  if (!text) throw InputError(path, "", "cannot read file (missing or unreadable)");
  return parse_json(*text, path);
}

std::string FileSource::read_named(JsonObject& referrer, std::string_view key, std::string& path) const {
  path = resolve_relative(referrer.file(), referrer.string(key));
  auto text = read(path);
  if (!text) {
    // Paths resolve against the folder of the file that names them: say where that led.
    const std::string absolute = absolute_path(path);
    throw referrer.error(key, "cannot read file " + quoted_for_message(path, 200) +
                                  (absolute == path ? "" : " (" + quoted_for_message(absolute, 200) + ")") +
                                  ": missing or unreadable (a relative path resolves against the folder of " +
                                  quoted_for_message(referrer.file(), 200) + ")");
  }
  return std::move(*text);
}

nlohmann::json FileSource::read_json_named(JsonObject& referrer, std::string_view key,
                                           std::string& path) const {
  return parse_json(read_named(referrer, key, path), path);
}

bool DiskFileSource::exists(const std::string& path) const {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

std::optional<std::string> DiskFileSource::read(const std::string& path) const {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  const std::lock_guard<std::mutex> lock(read_mutex_);
  read_.insert(absolute_path(path));
  return ss.str();
}

std::vector<std::string> DiskFileSource::files_read() const {
  const std::lock_guard<std::mutex> lock(read_mutex_);
  return {read_.begin(), read_.end()};
}

std::vector<std::string> OverlayFileSource::files_read() const {
  return base_.files_read();
}

std::optional<std::string> BundledFileSource::read(const std::string& path) const {
  auto it = files_.find(std::filesystem::path(path).lexically_normal().generic_string());
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> OverlayFileSource::read(const std::string& path) const {
  if (auto text = files_.read(path)) return text;
  return base_.read(path);
}

std::string resolve_relative(const std::string& including_file, const std::string& reference) {
  std::filesystem::path ref(reference);
  if (ref.is_absolute()) return ref.lexically_normal().generic_string();
  return (std::filesystem::path(including_file).parent_path() / ref).lexically_normal().generic_string();
}

std::string absolute_path(const std::string& path) {
  std::error_code ignored;  // a part that does not exist stays as written, normalized
  return std::filesystem::weakly_canonical(std::filesystem::absolute(path), ignored).generic_string();
}

}  // namespace zs::core
