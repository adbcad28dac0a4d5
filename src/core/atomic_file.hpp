// Writes one file atomically: a temporary file beside it, renamed over it when complete.
#pragma once

#include <filesystem>
#include <string>

namespace zs::core {

/// Throws std::runtime_error (and leaves nothing behind) when the file cannot be written.
void write_file_atomically(const std::filesystem::path& path, const std::string& content);

}  // namespace zs::core
