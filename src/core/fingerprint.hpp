// Fingerprints of file contents, by which a journal tells that a file it ran from has changed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace zs::core {

/// "fnv1a64:" and the 64-bit FNV-1a hash of `bytes` in hexadecimal: the same bytes give the same text
/// on every machine.
std::string content_fingerprint(std::string_view bytes);

/// The fingerprint of the file at `path`, or nullopt when it cannot be read.
std::optional<std::string> file_fingerprint(const std::string& path);

}  // namespace zs::core
