// Atomic single-file writes.
#include "core/atomic_file.hpp"

#include <fstream>
#include <stdexcept>

#include <unistd.h>

namespace zs::core {

void write_file_atomically(const std::filesystem::path& path, const std::string& content) {
  auto temp = path;
  temp += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(temp, ec);
      throw std::runtime_error("cannot write " + path.string());
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace zs::core
