// FNV-1a content fingerprints.
#include "core/fingerprint.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace zs::core {

std::string content_fingerprint(std::string_view bytes) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a 64-bit offset basis and prime
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  char text[32];
  std::snprintf(text, sizeof text, "fnv1a64:%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::optional<std::string> file_fingerprint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return content_fingerprint(bytes.str());
}

}  // namespace zs::core
