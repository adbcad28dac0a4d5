// The shipped data files, read once from the source tree into memory, for targets that resolve includes.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace zs::fuzz {

/// Repository-relative path ("models/h100-sxm.json") to content, for the folders scenarios name.
inline const std::map<std::string, std::string>& shipped_files() {
  static const std::map<std::string, std::string> files = [] {
    namespace fs = std::filesystem;
    std::map<std::string, std::string> out;
    const fs::path root = ZS_SOURCE_DIR;
    for (const char* folder : {"scenarios", "models", "topologies", "workloads"})
      for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
        if (!entry.is_regular_file()) continue;
        std::ifstream in(entry.path(), std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        out[fs::relative(entry.path(), root).generic_string()] = text.str();
      }
    return out;
  }();
  return files;
}

}  // namespace zs::fuzz
