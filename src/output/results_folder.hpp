// Chooses and writes a command's result folder atomically; a failure to write is an input error.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace zs::output {

/// The folder a command writes: `out_dir` when given, else results/<default_name> (a name that is not a
/// safe single path component is an input error asking for --out). Checked before the command's work, so
/// that a refused folder (an existing file; a folder zettasim did not write, unless `force`) costs no
/// simulation.
std::filesystem::path results_folder(const std::string& out_dir, const std::string& default_name, bool force);

/// Stages `files` (name, content) and swaps the folder into place; nothing is left on failure.
void write_results_folder(const std::filesystem::path& dir,
                          const std::vector<std::pair<std::string, std::string>>& files, bool force);

}  // namespace zs::output
