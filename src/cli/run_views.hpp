// What `run` writes besides its results folder (a timeline and a time series, checked before the run), and
// the inputs of a command that no output may replace.
#pragma once

#include <optional>
#include <ostream>

#include "cli/commands.hpp"
#include "core/file_source.hpp"
#include "core/output_file.hpp"
#include "engine/simulation.hpp"
#include "output/timeline_json.hpp"
#include "scenario/scenario.hpp"

namespace zs::cli {

/// The views a run was asked for.
struct RunViews {
  std::optional<output::TimelineOptions> timeline;  ///< --timeline: what it shows
  std::optional<core::OutputFile> timeline_file;    ///< --timeline: where
  std::optional<core::OutputFile> timeseries_file;  ///< --timeseries: where
  bool any() const { return timeline || timeseries_file; }
};

/// Checks the options against the scenario (its mesh) and their files against the output-file rule
/// (core::check_output_file, and beside the command's other `outputs`: never one path twice, never inside
/// its results folder) before anything is simulated; throws core::InputError naming the option. `force`
/// (--force) lets a file zettasim did not write be replaced; `inputs` are never replaced.
RunViews check_views(const TimelineRequest& request, const scenario::Scenario& s,
                     core::CommandOutputs& outputs, bool force, const std::vector<std::string>& inputs);

/// What a command read that no output may replace: the files `files` read (core::FileSource::files_read)
/// and the plugins it loaded.
std::vector<std::string> command_inputs(const core::FileSource& files,
                                        const std::vector<std::string>& plugins);

/// Writes the views of a run simulated with their recording on, and says where they went.
void write_views(const RunViews& views, const TimelineRequest& request, const scenario::Scenario& s,
                 const engine::SimulationResult& result, std::ostream& out);

}  // namespace zs::cli
