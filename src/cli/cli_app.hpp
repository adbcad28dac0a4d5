// The zettasim command line (CLI11) as a function, so tests can drive it in-process.
#pragma once

#include <ostream>

namespace zs::cli {

/// Runs the command line. Exit codes: 0 ok, 2 bad input (the message names the file and JSON
/// path), 1 internal error. Never lets an exception escape.
int run_cli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace zs::cli
