// Checking and writing the timeline and time series of a run.
#include "cli/run_views.hpp"

#include <cstdio>

#include "cli/timeline_options.hpp"
#include "core/input_error.hpp"
#include "output/output_formats.hpp"
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
                    const core::OutputFile& file, const output::TimelineOptions& options, std::ostream& out) {
  const output::Timeline t = output::write_timeline_file(file, s, result, options);
  out << "timeline: " << file.path.string() << " (" << t.events
      << " events; open in ui.perfetto.dev or chrome://tracing)\n";
  if (t.cut_at)
    out << "warning: the timeline reached --timeline-max-size "
        << core::to_string(core::Bytes(double(options.max_bytes))) << " at simulated "
        << short_time(*t.cut_at)
        << ": later events are left out (narrow it with --timeline-ranks or --timeline-window, or raise the "
           "cap)\n";
}

void write_timeseries(const TimelineRequest& request, const core::OutputFile& file,
                      const scenario::Scenario& s, const engine::SimulationResult& result,
                      std::ostream& out) {
  const auto series = output::write_time_series_file(
      file, s, result, timeseries_step(request, result.replay.iteration_time.value()));
  out << "time series: " << request.timeseries << " (" << series.samples << " samples of "
      << short_time(series.step) << ")\n";
}

}  // namespace

std::vector<std::string> command_inputs(const core::FileSource& files,
                                        const std::vector<std::string>& plugins) {
  std::vector<std::string> inputs = files.files_read();
  for (const auto& p : plugins) inputs.push_back(core::absolute_path(p));
  return inputs;
}

RunViews check_views(const TimelineRequest& request, const scenario::Scenario& s,
                     core::CommandOutputs& outputs, bool force, const std::vector<std::string>& inputs) {
  if (request.file.empty())
    for (const auto& [option, value] :
         {std::pair{"--timeline-ranks", request.ranks}, {"--timeline-window", request.window}})
      if (!value.empty())
        throw core::InputError(option, "", "applies to a timeline: expected --timeline FILE with it");
  if (request.timeseries.empty() && !request.timeseries_step.empty())
    throw core::InputError("--timeseries-step", "",
                           "applies to a time series: expected --timeseries FILE with it");
  RunViews views;
  if (!request.file.empty()) {
    views.timeline_file =
        output::output_file(output::OutputFormat::kTimeline, "--timeline", request.file, force, inputs);
    outputs.add_file(*views.timeline_file);
    views.timeline = timeline_options(request, s.trace.mesh);
  }
  if (!request.timeseries.empty()) {
    views.timeseries_file = output::output_file(output::OutputFormat::kTimeSeries, "--timeseries",
                                                request.timeseries, force, inputs);
    outputs.add_file(*views.timeseries_file);
    check_timeseries_step(request);
  }
  return views;
}

void write_views(const RunViews& views, const TimelineRequest& request, const scenario::Scenario& s,
                 const engine::SimulationResult& result, std::ostream& out) {
  if (views.timeline) write_timeline(s, result, *views.timeline_file, *views.timeline, out);
  if (views.timeseries_file) write_timeseries(request, *views.timeseries_file, s, result, out);
}

}  // namespace zs::cli
