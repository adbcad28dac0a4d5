// Chooses and writes a command's result folder atomically; a failure to write is an input error.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/file_name.hpp"
#include "core/input_error.hpp"
#include "output/staged_directory.hpp"

namespace zs::cli {

/// The folder a command writes: `out_dir` when given, else results/<default_name>. Checked before the
/// command's work (check_replaceable), so that a refused folder costs no simulation.
inline std::filesystem::path results_folder(const std::string& out_dir, const std::string& default_name,
                                            bool force) {
  if (out_dir.empty()) {
    if (auto problem = core::file_name_problem(default_name))
      throw core::InputError("--out", "",
                             "the default folder results/<name> needs a name of " +
                                 std::string(core::kFileNameRule) + ", got " + *problem + "; pass --out");
  }
  std::filesystem::path dir =
      out_dir.empty() ? std::filesystem::path("results") / default_name : std::filesystem::path(out_dir);
  output::check_replaceable(dir, force ? output::Replace::kForce : output::Replace::kOwnOutput);
  return dir;
}

/// Stages `files` (name, content) and swaps the folder into place; nothing is left on failure.
inline void write_results_folder(const std::filesystem::path& dir,
                                 const std::vector<std::pair<std::string, std::string>>& files, bool force) {
  try {
    output::StagedDirectory stage(dir, force ? output::Replace::kForce : output::Replace::kOwnOutput);
    for (const auto& [name, content] : files) stage.write(name, content);
    stage.commit();
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw core::InputError(dir.string(), "", std::string("cannot write the output folder: ") + e.what());
  }
}

}  // namespace zs::cli
