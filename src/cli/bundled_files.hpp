// The shipped scenario, model, topology and workload files, embedded in the binary at build time.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/file_source.hpp"

namespace zs::cli {

/// Repository-relative path ("scenarios/default.json") to file content.
std::map<std::string, std::string> bundled_files();

/// The scenario `zettasim run` uses when given none.
inline constexpr const char* kDefaultScenario = "scenarios/default.json";

/// The validation file `zettasim validate` uses when given none.
inline constexpr const char* kDefaultValidation = "scenarios/validation/megatron-sc21.json";
/// Where the shipped validation files are, among the bundled files.
inline constexpr const char* kValidationFolder = "scenarios/validation/";

/// Where a command reads its input from: `path` on disk, or, when `path` is empty, `default_path` among
/// the bundled files.
struct InputFiles {
  std::unique_ptr<core::FileSource> files;
  std::string path;
};
inline InputFiles input_files(const std::string& path, const char* default_path) {
  if (path.empty()) return {std::make_unique<core::BundledFileSource>(bundled_files()), default_path};
  return {std::make_unique<core::DiskFileSource>(), path};
}

}  // namespace zs::cli
