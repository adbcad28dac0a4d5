// Utilization over time on a fixed grid: per link direction, memory pool and optical switch, and per rank
// the share of each state and of each communicator's exposed communication.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/output_file.hpp"
#include "engine/simulation.hpp"
#include "scenario/scenario.hpp"

namespace zs::output {

/// Sample i covers simulated time [i step, (i + 1) step); the last one may reach past the iteration's end.
/// Every value is an average over its sample. Arrays are row-major, time fastest.
struct TimeSeries {
  double step = 0;  ///< s
  size_t samples = 0;
  double iteration_time = 0;  ///< s

  /// Exact fidelity: the link directions that carried anything, in index order.
  std::vector<uint32_t> link_directions;  ///< 2 l (link l from its end a to b) or 2 l + 1
  std::vector<std::string> link_names;    ///< "A -> B"
  /// What the link joins and its model, to group by: "unit - switch (MODEL)", "switch level 1 - 2 (MODEL)"
  /// (levels: fewest links from a unit), "unit - unit (MODEL)", "memory pool (MODEL)", "optical circuit
  /// (MODEL)".
  std::vector<std::string> link_tiers;
  std::vector<double> link_utilization;  ///< [direction][sample], fraction of its bandwidth
  std::vector<std::string> pool_names;
  std::vector<double> pool_utilization;  ///< [pool][sample], fraction of the pool's bandwidth
  std::vector<std::string> optical_names;
  std::vector<double> optical_utilization;  ///< [switch][sample], of all its circuits' bandwidth

  std::vector<uint64_t> ranks;             ///< the simulated ranks (collapsed: representatives)
  std::vector<uint64_t> stands_for;        ///< ranks each stands for
  std::vector<std::string> states;         ///< "compute", "exposed communication", ..., "idle"
  std::vector<double> state_share;         ///< [rank][state][sample], fraction of the sample
  std::vector<std::string> communicators;  ///< the communicators the ranks used, by name
  /// [communicator][rank][sample]: fraction of the sample with a collective on it in flight and no compute.
  std::vector<double> exposed_share;
};

/// The time series of a run simulated with SimulationEvents::record_timeline, sampled every `step` s
/// (> 0; at most kMaxTimeSeriesSamples samples over the iteration, else core::InputError naming
/// "--timeseries-step").
TimeSeries time_series(const scenario::Scenario& s, const engine::SimulationResult& r, double step);

inline constexpr size_t kMaxTimeSeriesSamples = 1'000'000;

/// The default step for an iteration of `iteration` s: the 1, 2 or 5 x 10^k s that makes about 1,000 samples.
double default_time_series_step(double iteration);

/// Writes `t` as HDF5 (layout in docs/timelines.md), atomically.
void write_time_series_hdf5(const std::string& path, const scenario::Scenario& s,
                            const engine::SimulationResult& r, const TimeSeries& t);

/// The time series of `r` every `step` s (0: default_time_series_step) written to `file` under the
/// output-file rule (core::check_output_file); a refusal or a failure is a core::InputError naming
/// `file.option`.
TimeSeries write_time_series_file(const core::OutputFile& file, const scenario::Scenario& s,
                                  const engine::SimulationResult& r, double step);

}  // namespace zs::output
