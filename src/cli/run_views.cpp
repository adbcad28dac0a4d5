// Checking and writing the timeline and time series of a run.
#include "cli/run_views.hpp"

#include <cstdio>
#include <filesystem>

#include "cli/timeline_options.hpp"
#include "core/input_error.hpp"
#include "output/time_series.hpp"

namespace zs::cli {
namespace {

/// `seconds` to 6 significant digits, for messages.
std::string short_time(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g s", seconds);
  return text;
}

void write_timeline(const scenario::Scenario& s, const engine::SimulationResult& result,
                    const std::string& file, const output::TimelineOptions& options, std::ostream& out) {
  const output::Timeline t = output::write_timeline_file(file, "--timeline", s, result, options);
  out << "timeline: " << file << " (" << t.events
      << " events; open in ui.perfetto.dev or chrome://tracing)\n";
  if (t.cut_at)
    out << "warning: the timeline reached --timeline-max-size "
        << core::to_string(core::Bytes(double(options.max_bytes))) << " at simulated "
        << short_time(*t.cut_at)
        << ": later events are left out (narrow it with --timeline-ranks or --timeline-window, or raise the "
           "cap)\n";
}

void write_timeseries(const TimelineRequest& request, const scenario::Scenario& s,
                      const engine::SimulationResult& result, std::ostream& out) {
  const auto series =
      output::write_time_series_file(request.timeseries, "--timeseries", s, result,
                                     timeseries_step(request, result.replay.iteration_time.value()));
  out << "time series: " << request.timeseries << " (" << series.samples << " samples of "
      << short_time(series.step) << ")\n";
}

}  // namespace

RunViews check_views(const TimelineRequest& request, const scenario::Scenario& s) {
  for (const auto& [option, file] :
       {std::pair{"--timeline", request.file}, {"--timeseries", request.timeseries}})
    if (!file.empty() && std::filesystem::is_directory(file))
      throw core::InputError(option, "", "\"" + file + "\" is a folder; expected a file name");
  RunViews views;
  if (!request.file.empty()) views.timeline = timeline_options(request, s.trace.mesh);
  if (!request.timeseries.empty()) {
    check_timeseries_step(request);
    views.timeseries = true;
  }
  return views;
}

void write_views(const RunViews& views, const TimelineRequest& request, const scenario::Scenario& s,
                 const engine::SimulationResult& result, std::ostream& out) {
  if (views.timeline) write_timeline(s, result, request.file, *views.timeline, out);
  if (views.timeseries) write_timeseries(request, s, result, out);
}

}  // namespace zs::cli
