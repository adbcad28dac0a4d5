// `zettasim place`: a scenario's placement and its cost per communicator, without simulating.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"

namespace zs::cli {

struct PlaceOptions {
  std::string scenario;
  std::vector<std::string> policies;  ///< empty: the scenario's own
  uint64_t sample = 1024;             ///< ranks evaluated at most
  scenario::LoadLimits limits;
};

int print_placement_cost(const PlaceOptions& opt, std::ostream& out);

}  // namespace zs::cli
