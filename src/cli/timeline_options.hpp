// The `run --timeline*` options checked and turned into what the timeline writer takes.
#pragma once

#include "cli/commands.hpp"
#include "output/timeline_json.hpp"
#include "workload/mesh.hpp"

namespace zs::cli {

/// Throws core::InputError naming the option for a bad selection, window or size.
output::TimelineOptions timeline_options(const TimelineRequest& request, const workload::Mesh& mesh);

/// The time series' step, s: --timeseries-step, or else the 1, 2 or 5 x 10^k s that makes about 1,000
/// samples of `iteration` (s). Throws core::InputError naming the option for a bad step.
double timeseries_step(const TimelineRequest& request, double iteration);
/// Checks --timeseries-step before the run (its value is used after it).
void check_timeseries_step(const TimelineRequest& request);

}  // namespace zs::cli
