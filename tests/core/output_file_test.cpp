// The output-file rule: what may lie where zettasim writes a file, and which outputs may not meet.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/output_file.hpp"
#include "support/temp_dir.hpp"

using zs::core::CommandOutputs;
using zs::core::InputError;
using zs::core::OutputFile;
namespace fs = std::filesystem;

namespace {

/// An output whose own files start with "OURS".
OutputFile output(const fs::path& path, std::vector<std::string> inputs = {}, bool force = false) {
  return {"--out-file",
          path,
          "a test file",
          [](const fs::path& p) { return zs::core::starts_with_text(p, "OURS"); },
          force ? zs::core::Replace::kForce : zs::core::Replace::kOwnOutput,
          std::move(inputs)};
}

/// The message of the InputError `f` throws, or "" when it throws none.
template <typename F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    CHECK(e.file() == "--out-file");
    return e.message();
  }
  return "";
}

bool holds(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a new file is written whole, one zettasim wrote is replaced, any other only with force") {
  zs::test::TempDir dir;
  const fs::path path = dir.path() / "out.txt";
  zs::core::write_output_file(output(path), "OURS 1");
  CHECK(zs::test::read_text(path) == "OURS 1");
  zs::core::write_output_file(output(path), "OURS 2");
  CHECK(zs::test::read_text(path) == "OURS 2");
  dir.write("user.txt", "the user's notes");
  CHECK(holds(refusal([&] { zs::core::write_output_file(output(dir.path() / "user.txt"), "OURS"); }),
              "exists and is not a test file zettasim wrote"));
  CHECK(zs::test::read_text(dir.path() / "user.txt") == "the user's notes");
  zs::core::write_output_file(output(dir.path() / "user.txt", {}, true), "OURS forced");
  CHECK(zs::test::read_text(dir.path() / "user.txt") == "OURS forced");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
  CHECK(left.size() == 2);  // no temporary file left beside them
}

TEST_CASE("never a link, a folder, a missing folder or an input, not even with force") {
  zs::test::TempDir dir;
  const std::string target = dir.write("target.txt", "OURS but linked");
  fs::create_symlink(target, dir.path() / "link.txt");
  fs::create_directories(dir.path() / "folder");
  const std::string input = dir.write("scenario.json", "OURS");
  for (const bool force : {false, true}) {
    CAPTURE(force);
    CHECK(holds(refusal([&] { zs::core::check_output_file(output(dir.path() / "link.txt", {}, force)); }),
                "is a symbolic link"));
    CHECK(holds(refusal([&] { zs::core::check_output_file(output(dir.path() / "folder", {}, force)); }),
                "is a folder"));
    CHECK(
        holds(refusal([&] { zs::core::check_output_file(output(dir.path() / "none" / "x.txt", {}, force)); }),
              "no folder"));
    const std::vector<std::string> inputs{zs::core::absolute_path(input)};
    // The input is named another way (through "./" and ".."): still the same file.
    const fs::path other_name = dir.path() / "folder" / ".." / "." / "scenario.json";
    CHECK(holds(refusal([&] { zs::core::check_output_file(output(other_name, inputs, force)); }),
                "is an input of this command"));
  }
  CHECK(fs::is_symlink(dir.path() / "link.txt"));
  CHECK(zs::test::read_text(target) == "OURS but linked");
  CHECK(holds(refusal([&] { zs::core::check_output_file(output("")); }), "expected a file's path"));
}

TEST_CASE("a folder no file can be created in is refused before any work, even for root") {
  // /proc lets root pass access(W_OK) but creates no file: the check creates a probe, as the write will.
  CHECK(holds(refusal([] { zs::core::check_output_file(output("/proc/zettasim-timeline.json")); }),
              "cannot write in folder \"/proc\""));
  zs::test::TempDir dir;
  CHECK(refusal([&] { zs::core::check_output_file(output(dir.path() / "t.json")); }).empty());
  CHECK(fs::is_empty(dir.path()));  // the probe is gone
}

TEST_CASE("the files a disk source read are the inputs no output may replace") {
  zs::test::TempDir dir;
  const std::string a = dir.write("a.json", "{}");
  zs::core::DiskFileSource files;
  REQUIRE(files.read(a));
  CHECK_FALSE(files.read(dir.file("missing.json")));
  CHECK(files.files_read() == std::vector<std::string>{zs::core::absolute_path(a)});
}

TEST_CASE("outputs of one command: never one path twice, never inside its folders, no folder over an input") {
  zs::test::TempDir dir;
  const std::string input = dir.write("in/scenario.json", "{}");
  {
    CommandOutputs outputs;
    outputs.add_file(output(dir.path() / "a.txt"));
    CHECK(holds(refusal([&] { outputs.add_file(output(dir.path() / "." / "a.txt")); }), "name one file"));
  }
  {
    CommandOutputs outputs;
    outputs.add_folder("--out-file", dir.path() / "results");
    CHECK(holds(refusal([&] { outputs.add_file(output(dir.path() / "results" / "summary.json")); }),
                "is inside"));
    CHECK(
        refusal([&] { outputs.add_file(output(dir.path() / "results.json")); }).empty());  // beside it: fine
  }
  {
    CommandOutputs outputs({zs::core::absolute_path(input)});
    CHECK(holds(refusal([&] { outputs.add_folder("--out-file", dir.path() / "in"); }),
                "an input of this command"));
  }
  {
    CommandOutputs outputs;
    outputs.add_folder("--out-file", dir.path() / "x");
    CHECK(holds(refusal([&] { outputs.add_folder("--out-file", dir.path() / "x" / "y"); }),
                "one inside the other"));
  }
}
