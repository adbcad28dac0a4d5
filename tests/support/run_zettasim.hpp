// Test helper: runs the zettasim executable (ZS_ZETTASIM) as a process, for commands that start processes
// of it (sweep, regress), capturing its exit code and both streams.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace zs::test {

/// Runs `zettasim ARGS...` with its streams in files of `dir` (each argument single-quoted).
inline CliResult run_zettasim(const TempDir& dir, const std::vector<std::string>& args) {
  std::string command = ZS_ZETTASIM;
  for (const auto& a : args) command += " '" + a + "'";
  command += " >" + dir.file("stdout.txt") + " 2>" + dir.file("stderr.txt");
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(dir.file("stdout.txt")),
          read_text(dir.file("stderr.txt"))};
}

}  // namespace zs::test
