// Writes a run's output folder atomically: files go to a hidden staging folder, renamed into place at the
// end.
#pragma once

#include <filesystem>
#include <string>

namespace zs::output {

/// Nothing appears under the final path until commit(); a destroyed, uncommitted stage is removed,
/// so a failed run leaves no half-written folder. commit() replaces an existing folder of that name.
class StagedDirectory {
 public:
  /// Creates the staging folder beside `final_path` (its parent is created if needed).
  explicit StagedDirectory(std::filesystem::path final_path);
  ~StagedDirectory();
  StagedDirectory(const StagedDirectory&) = delete;
  StagedDirectory& operator=(const StagedDirectory&) = delete;

  /// Writes a file into the stage; throws std::runtime_error on an I/O failure.
  void write(const std::string& name, const std::string& content);
  /// Moves the stage to the final path, replacing what was there.
  void commit();
  const std::filesystem::path& final_path() const { return final_; }

 private:
  std::filesystem::path final_;
  std::filesystem::path stage_;
  bool committed_ = false;
};

}  // namespace zs::output
