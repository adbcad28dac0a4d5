// Test helper: runs the command line in-process and captures exit code, stdout and stderr.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_app.hpp"
#include "support/source_file.hpp"

namespace zs::test {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline CliResult run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "zettasim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  int code = cli::run_cli(int(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace zs::test
