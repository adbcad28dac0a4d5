// Writes an output folder atomically: files go to a hidden staging folder, swapped into place at the end.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace zs::core {

/// The file every folder zettasim writes holds; a folder without it is never replaced unless forced.
inline constexpr const char* kOutputMarker = ".zettasim-output";

/// Whether an existing folder at the final path may be replaced.
enum class Replace {
  kOwnOutput,  ///< only a folder zettasim wrote (it holds kOutputMarker) or an empty folder
  kForce,      ///< any folder (the command line's --force); never a file or a link
};

/// Throws core::InputError when `path` exists and may not be replaced under `replace`: a file, a link,
/// or (without kForce) a non-empty folder that zettasim did not write. Commands call it before their
/// work, so that a refusal costs nothing; commit() checks again.
void check_replaceable(const std::filesystem::path& path, Replace replace);

/// Nothing appears under the final path until commit(), and at every instant the final path holds the
/// complete old folder or the complete new one: commit() swaps the two with one atomic rename
/// (renameat2 RENAME_EXCHANGE), then removes the old one. A destroyed, uncommitted stage is removed; the
/// staging folders of earlier runs that were killed (their process is gone) are removed on construction.
class StagedDirectory {
 public:
  /// The points of commit() a test may stop at, in order.
  enum class Step { kStaged, kFileWritten, kSwapped, kOldRemoved };
  /// Called at each step (tests kill the process there to check the folder stays whole).
  using StepHook = std::function<void(Step)>;

  /// Creates the staging folder beside `final_path` (its parent is created if needed); throws
  /// core::InputError when the final path may not be replaced (check_replaceable).
  explicit StagedDirectory(std::filesystem::path final_path, Replace replace = Replace::kOwnOutput,
                           StepHook hook = {});
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Writes a file into the stage and flushes it to disk; throws std::runtime_error on an I/O failure.
  void write(const std::string& name, const std::string& content);
  /// Swaps the stage into the final path (checked again), then removes what was there.
  void commit();
  const std::filesystem::path& final_path() const { return final_; }

 private:
  void remove_stale_stages() const;
  void step(Step s) const {
    if (hook_) hook_(s);
  }

  std::filesystem::path final_;
  std::filesystem::path stage_;
  Replace replace_;
  StepHook hook_;
  bool committed_ = false;
};

/// Writes `files` (name, content) into `dir` as one StagedDirectory swap. An I/O failure becomes an
/// InputError naming `dir`: "cannot write the WHAT: ...".
void write_staged_folder(const std::filesystem::path& dir,
                         const std::vector<std::pair<std::string, std::string>>& files, Replace replace,
                         const std::string& what);

}  // namespace zs::core
