// Atomic output folders: staged, fsynced, swapped into place with one rename, stale stages cleaned.
#include "core/staged_directory.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "core/input_error.hpp"

namespace zs::core {
namespace fs = std::filesystem;
namespace {

const char* const kStagingTag = ".staging-";
const char* const kOldTag = ".old-";  ///< the fallback swap's (and earlier versions') hidden old folder

fs::path parent_of(const fs::path& p) {
  return p.parent_path().empty() ? fs::path(".") : p.parent_path();
}

std::string errno_text(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

/// Flushes a folder's entries (a rename in it) to disk; best effort, as not every file system can.
void sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

/// The process id at the end of a hidden stage name ".NAME<tag>PID", or 0 when it is not one of ours.
pid_t stage_owner(const std::string& entry, const std::string& prefix) {
  if (entry.rfind(prefix, 0) != 0 || entry.size() == prefix.size()) return 0;
  pid_t pid = 0;
  for (size_t i = prefix.size(); i < entry.size(); ++i) {
    if (entry[i] < '0' || entry[i] > '9' || pid > 100000000) return 0;
    pid = pid * 10 + (entry[i] - '0');
  }
  return pid;
}

bool process_gone(pid_t pid) {
  return pid == ::getpid() || (::kill(pid, 0) != 0 && errno == ESRCH);
}

bool empty_folder(const fs::path& dir) {
  return fs::directory_iterator(dir) == fs::directory_iterator();
}

/// renameat2 with flags; false with errno set when it fails.
bool rename_with(const fs::path& from, const fs::path& to, unsigned flags) {
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0;
}

}  // namespace

void check_replaceable(const fs::path& path, Replace replace) {
  std::error_code ec;
  const auto status = fs::symlink_status(path, ec);
  if (ec || status.type() == fs::file_type::not_found) return;
  if (status.type() == fs::file_type::symlink)
    throw core::InputError(path.string(), "", "is a symbolic link; name the output folder itself");
  if (status.type() != fs::file_type::directory)
    throw core::InputError(path.string(), "",
                           "exists and is not a folder; zettasim never deletes a file: choose another output "
                           "folder");
  if (replace == Replace::kForce || fs::exists(path / kOutputMarker) || empty_folder(path)) return;
  throw core::InputError(path.string(), "",
                         std::string("is a folder that zettasim did not write (it has no ") + kOutputMarker +
                             "); choose another output folder, or pass --force to replace it");
}

StagedDirectory::StagedDirectory(fs::path final_path, Replace replace, StepHook hook)
    : final_(std::move(final_path)), replace_(replace), hook_(std::move(hook)) {
  if (final_.filename().empty()) final_ = final_.parent_path();
  if (final_.filename() == "." || final_.filename() == "..")
    throw core::InputError(final_.string(), "", "name the output folder itself, not '.' or '..'");
  check_replaceable(final_, replace_);
  fs::create_directories(parent_of(final_));
  remove_stale_stages();
  stage_ = parent_of(final_) / ("." + final_.filename().string() + kStagingTag + std::to_string(::getpid()));
  fs::remove_all(stage_);
  fs::create_directory(stage_);
  step(Step::kStaged);
  write(kOutputMarker, "zettasim output folder: replaced whole by the next run that writes here\n");
}

StagedDirectory::~StagedDirectory() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

/// Removes the stages of earlier runs whose process is gone; an old folder that a killed fallback swap
/// left hidden while the final path is missing is put back first.
void StagedDirectory::remove_stale_stages() const {
  const std::string name = final_.filename().string();
  const std::string staging = "." + name + kStagingTag, old = "." + name + kOldTag;
  for (const auto& entry : fs::directory_iterator(parent_of(final_))) {
    const std::string entry_name = entry.path().filename().string();
    const pid_t staged_by = stage_owner(entry_name, staging), hidden_by = stage_owner(entry_name, old);
    if (hidden_by != 0 && process_gone(hidden_by) && !fs::exists(fs::symlink_status(final_))) {
      fs::rename(entry.path(), final_);
      continue;
    }
    const pid_t owner = staged_by != 0 ? staged_by : hidden_by;
    if (owner != 0 && process_gone(owner)) fs::remove_all(entry.path());
  }
}

void StagedDirectory::write(const std::string& name, const std::string& content) {
  const fs::path path = stage_ / name;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(errno_text("cannot write " + path.string()));
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = errno_text("cannot write " + path.string());
      ::close(fd);
      throw std::runtime_error(why);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 && errno != EINVAL) {
    const std::string why = errno_text("cannot flush " + path.string());
    ::close(fd);
    throw std::runtime_error(why);
  }
  ::close(fd);
  step(Step::kFileWritten);
}

void StagedDirectory::commit() {
  check_replaceable(final_, replace_);
  sync_folder(stage_);
  if (rename_with(stage_, final_, RENAME_NOREPLACE)) {
    committed_ = true;
    step(Step::kSwapped);
  } else if (errno == EEXIST && rename_with(stage_, final_, RENAME_EXCHANGE)) {
    committed_ = true;  // the stage's path now holds the old folder
    step(Step::kSwapped);
    fs::remove_all(stage_);
  } else if (errno == EINVAL || errno == ENOSYS) {
    // A file system without renameat2's flags: hide the old folder, then rename; a run killed between
    // the two leaves the old folder hidden, and the next run puts it back (remove_stale_stages).
    const fs::path old =
        parent_of(final_) / ("." + final_.filename().string() + kOldTag + std::to_string(::getpid()));
    const bool had_old = fs::exists(fs::symlink_status(final_));
    if (had_old) fs::rename(final_, old);
    fs::rename(stage_, final_);
    committed_ = true;
    step(Step::kSwapped);
    if (had_old) fs::remove_all(old);
  } else {
    throw std::runtime_error(errno_text("cannot move " + stage_.string() + " to " + final_.string()));
  }
  sync_folder(parent_of(final_));
  step(Step::kOldRemoved);
}

void write_staged_folder(const std::filesystem::path& dir,
                         const std::vector<std::pair<std::string, std::string>>& files, Replace replace,
                         const std::string& what) {
  try {
    StagedDirectory stage(dir, replace);
    for (const auto& [name, content] : files) stage.write(name, content);
    stage.commit();
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(dir.string(), "", "cannot write the " + what + ": " + e.what());
  }
}

}  // namespace zs::core
