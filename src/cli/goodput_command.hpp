// `zettasim goodput`: days of training under failures, from one simulated iteration.
#pragma once

#include <ostream>
#include <string>

#include "reliability/goodput_simulator.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::cli {

struct GoodputOptions {
  std::string scenario;
  std::string out_dir;  ///< default results/<scenario name>-goodput
  uint32_t seeds = 0;   ///< overrides the scenario's when > 0
  bool quiet = false;
  bool force = false;  ///< replace an existing folder that zettasim did not write
  double max_events = reliability::GoodputConfig::kDefaultMaxEventsPerSeed;  ///< per seed, expected
  scenario::LoadLimits limits;
};

/// Simulates one iteration of the scenario (as `run`), then its "reliability" section's horizon over the
/// seeds; writes goodput.json, config.json and report.txt atomically and prints the report.
int run_goodput(const GoodputOptions& opt, std::ostream& out);

}  // namespace zs::cli
