// What `run` writes besides its results folder: a timeline and a time series, checked before the run.
#pragma once

#include <optional>
#include <ostream>

#include "cli/commands.hpp"
#include "engine/simulation.hpp"
#include "output/timeline_json.hpp"
#include "scenario/scenario.hpp"

namespace zs::cli {

/// The views a run was asked for.
struct RunViews {
  std::optional<output::TimelineOptions> timeline;  ///< --timeline: what it shows
  bool timeseries = false;                          ///< --timeseries
  bool any() const { return timeline || timeseries; }
};

/// Checks the options against the scenario (its mesh) before anything is simulated; throws
/// core::InputError naming the option.
RunViews check_views(const TimelineRequest& request, const scenario::Scenario& s);

/// Writes the views of a run simulated with their recording on, and says where they went.
void write_views(const RunViews& views, const TimelineRequest& request, const scenario::Scenario& s,
                 const engine::SimulationResult& result, std::ostream& out);

}  // namespace zs::cli
