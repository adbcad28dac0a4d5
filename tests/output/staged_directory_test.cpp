// Atomic output folders: nothing half-written is left behind.
#include <doctest/doctest.h>

#include "output/staged_directory.hpp"
#include "support/temp_dir.hpp"

using zs::output::StagedDirectory;
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
}
