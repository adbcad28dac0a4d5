// A scenario's "reliability" section: failure rates, checkpointing, recovery and the horizon to simulate.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "policy/checkpoint_interval.hpp"
#include "policy/failure_rates.hpp"

namespace zs::scenario {

struct ReliabilitySetup {
  policy::FailureRates rates;
  double horizon = 0;  ///< wall-clock time simulated, s
  uint32_t seeds = 1;  ///< Monte Carlo seeds
  policy::CheckpointPolicy checkpoint;
  double checkpoint_bandwidth = 0;  ///< to the checkpoint store, all ranks together, B/s
  double detection = 0;             ///< s
  double restart = 0;               ///< s
  uint32_t spares = 0;              ///< 0: no spare pool (replaced parts are waited for)
  double swap = 0;                  ///< s
  double repair = 0;                ///< s
  nlohmann::json resolved;
};

/// Reads the section; rates are read from the file it names, relative to the scenario. A spare pool of
/// zero units, a non-positive time or bandwidth and an unknown interval rule are core::InputError with
/// the JSON path.
ReliabilitySetup read_reliability(core::JsonObject& section, const core::FileSource& files);

}  // namespace zs::scenario
