// Writes a command's result files into their folder atomically; a failure to write is an input error.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/input_error.hpp"
#include "output/staged_directory.hpp"

namespace zs::cli {

/// Stages `files` (name, content) and renames the folder into place; nothing is left on failure.
inline void write_results_folder(const std::filesystem::path& dir,
                                 const std::vector<std::pair<std::string, std::string>>& files) {
  try {
    output::StagedDirectory stage(dir);
    for (const auto& [name, content] : files) stage.write(name, content);
    stage.commit();
  } catch (const std::filesystem::filesystem_error& e) {
    throw core::InputError(dir.string(), "", std::string("cannot write the output folder: ") + e.what());
  }
}

}  // namespace zs::cli
