// zettasim executable entry point.
#include <iostream>

#include "cli/cli_app.hpp"

int main(int argc, char** argv) {
  return zs::cli::run_cli(argc, argv, std::cout, std::cerr);
}
