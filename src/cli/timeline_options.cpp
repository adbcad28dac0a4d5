// Parsing the timeline options: rank selection, time window, size cap.
#include "cli/timeline_options.hpp"

#include <limits>

#include "core/input_error.hpp"
#include "core/units.hpp"
#include "output/time_series.hpp"

namespace zs::cli {
namespace {

/// One end of the window, or `open` when that side is empty.
double window_end(const std::string& text, const std::string& whole, double open) {
  if (text.empty()) return open;
  try {
    const double s = core::parse_seconds(text).value();
    if (!(s >= 0) || s == std::numeric_limits<double>::infinity())
      throw core::UnitError("negative or infinite");
    return s;
  } catch (const core::UnitError&) {
    throw core::InputError(
        "--timeline-window", "",
        "\"" + whole + "\": expected START..END, each a time such as 10ms or empty, got \"" + text + "\"");
  }
}

}  // namespace

output::TimelineOptions timeline_options(const TimelineRequest& request, const workload::Mesh& mesh) {
  output::TimelineOptions out;
  if (!request.ranks.empty())
    out.ranks = workload::RankSelection::parse(request.ranks, mesh, "--timeline-ranks");
  if (!request.window.empty()) {
    const size_t dots = request.window.find("..");
    if (dots == std::string::npos)
      throw core::InputError("--timeline-window", "",
                             "\"" + request.window + "\": expected START..END (\"10ms..25ms\", \"..1s\")");
    out.from = window_end(request.window.substr(0, dots), request.window, 0);
    out.to =
        window_end(request.window.substr(dots + 2), request.window, std::numeric_limits<double>::infinity());
    if (out.to < out.from)
      throw core::InputError("--timeline-window", "", "\"" + request.window + "\": END is before START");
  }
  try {
    const double bytes = core::parse_bytes(request.max_size).value();
    if (!(bytes >= 1e4) || bytes > 1e15) throw core::UnitError("out of range");
    out.max_bytes = uint64_t(bytes);
  } catch (const core::UnitError&) {
    throw core::InputError(
        "--timeline-max-size", "",
        "expected a size from 10kB to 1PB such as 200MB, got \"" + request.max_size + "\"");
  }
  out.busiest_links = request.busiest_links;
  return out;
}

void check_timeseries_step(const TimelineRequest& request) {
  timeseries_step(request, 1.0);
}

double timeseries_step(const TimelineRequest& request, double iteration) {
  if (request.timeseries_step.empty()) return output::default_time_series_step(iteration);
  try {
    const double s = core::parse_seconds(request.timeseries_step).value();
    if (!(s > 0) || s == std::numeric_limits<double>::infinity()) throw core::UnitError("not positive");
    return s;
  } catch (const core::UnitError&) {
    throw core::InputError("--timeseries-step", "",
                           "expected a positive time such as 1ms, got \"" + request.timeseries_step + "\"");
  }
}

}  // namespace zs::cli
