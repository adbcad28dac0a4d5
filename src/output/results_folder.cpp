// Result folders: chosen safely, written atomically.
#include "output/results_folder.hpp"

#include "core/file_name.hpp"
#include "core/input_error.hpp"
#include "core/staged_directory.hpp"

namespace zs::output {

std::filesystem::path results_folder(const std::string& out_dir, const std::string& default_name,
                                     bool force) {
  if (out_dir.empty()) {
    if (auto problem = core::file_name_problem(default_name))
      throw core::InputError("--out", "",
                             "the default folder results/<name> needs a name of " +
                                 std::string(core::kFileNameRule) + ", got " + *problem + "; pass --out");
  }
  std::filesystem::path dir =
      out_dir.empty() ? std::filesystem::path("results") / default_name : std::filesystem::path(out_dir);
  core::check_replaceable(dir, force ? core::Replace::kForce : core::Replace::kOwnOutput);
  return dir;
}

void write_results_folder(const std::filesystem::path& dir,
                          const std::vector<std::pair<std::string, std::string>>& files, bool force) {
  core::write_staged_folder(dir, files, force ? core::Replace::kForce : core::Replace::kOwnOutput,
                            "output folder");
}

}  // namespace zs::output
