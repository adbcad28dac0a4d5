// Atomic output folders: nothing half-written is left behind.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "core/input_error.hpp"

#include "core/staged_directory.hpp"
#include "support/temp_dir.hpp"

using zs::core::StagedDirectory;
namespace fs = std::filesystem;

TEST_CASE("files appear only at commit") {
  zs::test::TempDir dir;
  auto final_path = dir.path() / "run";
  {
    StagedDirectory stage(final_path);
    stage.write("a.txt", "one");
    CHECK_FALSE(fs::exists(final_path));
    stage.commit();
  }
  CHECK(zs::test::read_text(final_path / "a.txt") == "one");
}

TEST_CASE("an uncommitted stage leaves nothing, and a commit replaces the old folder whole") {
  zs::test::TempDir dir;
  auto final_path = dir.path() / "run";
  {
    StagedDirectory stage(final_path);
    stage.write("a.txt", "one");
    stage.write("b.txt", "two");
    stage.commit();
  }
  {
    StagedDirectory stage(final_path);
    stage.write("a.txt", "half");
  }  // destroyed without commit, as when a run fails
  CHECK(zs::test::read_text(final_path / "a.txt") == "one");
  {
    StagedDirectory stage(final_path);
    stage.write("a.txt", "new");
    stage.commit();
  }
  CHECK(zs::test::read_text(final_path / "a.txt") == "new");
  CHECK_FALSE(fs::exists(final_path / "b.txt"));
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++entries;
  CHECK(entries == 1);  // no staging or old folders left
  CHECK(fs::exists(final_path / zs::core::kOutputMarker));
}

namespace {

using Step = StagedDirectory::Step;

/// Names in `dir`, sorted.
std::vector<std::string> entries_of(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Writes a complete result folder at `path` holding a.txt and b.txt with `text`.
void write_complete(const fs::path& path, const std::string& text, StagedDirectory::StepHook hook = {}) {
  StagedDirectory stage(path, zs::core::Replace::kOwnOutput, std::move(hook));
  stage.write("a.txt", text);
  stage.write("b.txt", text);
  stage.commit();
}

/// Whether `path` holds a complete folder whose files both say `text`.
bool complete_with(const fs::path& path, const std::string& text) {
  return zs::test::read_text(path / "a.txt") == text && zs::test::read_text(path / "b.txt") == text &&
         fs::exists(path / zs::core::kOutputMarker);
}

/// Runs write_complete(path, "new") in a child process that SIGKILLs itself at the `stop_at`-th step
/// (counting from 1); returns whether the child was killed there.
bool killed_at_step(const fs::path& path, int stop_at) {
  const pid_t child = ::fork();
  if (child == 0) {
    int seen = 0;
    write_complete(path, "new", [&](Step) {
      if (++seen == stop_at) ::raise(SIGKILL);
    });
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

}  // namespace

TEST_CASE("killed at every step of a commit, the folder holds the whole old or the whole new results") {
  // Steps: staged, marker written, a.txt, b.txt, swapped, old removed (6); a kill after the last is a
  // run that finished.
  for (int stop_at = 1; stop_at <= 7; ++stop_at) {
    CAPTURE(stop_at);
    zs::test::TempDir dir;
    const auto final_path = dir.path() / "run";
    write_complete(final_path, "old");
    const bool killed = killed_at_step(final_path, stop_at);
    CHECK(killed == (stop_at <= 6));
    const bool swapped = stop_at >= 5;
    CHECK(complete_with(final_path, swapped ? "new" : "old"));
    // The next run removes what the killed one left and leaves only its own folder.
    write_complete(final_path, "next");
    CHECK(complete_with(final_path, "next"));
    CHECK(entries_of(dir.path()) == std::vector<std::string>{"run"});
  }
}

TEST_CASE("a stage of a process still running is left alone") {
  zs::test::TempDir dir;
  const auto live = dir.path() / (".run.staging-" + std::to_string(::getppid()));
  fs::create_directory(live);
  write_complete(dir.path() / "run", "one");
  CHECK(fs::exists(live));
}

TEST_CASE("an old folder hidden by a killed fallback swap is put back, not deleted") {
  zs::test::TempDir dir;
  write_complete(dir.path() / "run", "old");
  // A run without renameat2's flags killed between its two renames leaves this behind:
  const pid_t gone = 999999999;
  fs::rename(dir.path() / "run", dir.path() / (".run.old-" + std::to_string(gone)));
  {
    StagedDirectory stage(dir.path() / "run");  // construction restores it; destruction uncommitted
  }
  CHECK(complete_with(dir.path() / "run", "old"));
  CHECK(entries_of(dir.path()) == std::vector<std::string>{"run"});
}

TEST_CASE("a file, a link or a folder zettasim did not write is never replaced without force") {
  zs::test::TempDir dir;
  const auto file = dir.write("notes.txt", "precious");
  CHECK_THROWS_AS(StagedDirectory{file}, zs::core::InputError);
  CHECK_THROWS_AS((StagedDirectory{file, zs::core::Replace::kForce}), zs::core::InputError);
  CHECK(zs::test::read_text(file) == "precious");

  dir.write("mine/thesis.tex", "precious");
  try {
    StagedDirectory stage(dir.path() / "mine");
    FAIL("a foreign folder was accepted");
  } catch (const zs::core::InputError& e) {
    CHECK(std::string(e.what()) == (dir.path() / "mine").string() +
                                       ": is a folder that zettasim did not write (it has no "
                                       ".zettasim-output); choose another output folder, or pass "
                                       "--force to replace it");
  }
  CHECK(zs::test::read_text(dir.path() / "mine/thesis.tex") == "precious");

  fs::create_directory_symlink(dir.path() / "mine", dir.path() / "link");
  CHECK_THROWS_AS((StagedDirectory{dir.path() / "link", zs::core::Replace::kForce}), zs::core::InputError);

  fs::create_directory(dir.path() / "empty");
  write_complete(dir.path() / "empty", "one");  // an empty folder holds nothing to lose
  CHECK(complete_with(dir.path() / "empty", "one"));

  {
    StagedDirectory stage(dir.path() / "mine", zs::core::Replace::kForce);
    stage.write("a.txt", "forced");
    stage.commit();
  }
  CHECK(zs::test::read_text(dir.path() / "mine/a.txt") == "forced");
  CHECK_FALSE(fs::exists(dir.path() / "mine/thesis.tex"));
}
