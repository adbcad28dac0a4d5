// A run as a timeline in the Trace Event Format (JSON), which Perfetto's UI and chrome://tracing open.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "core/output_file.hpp"
#include "engine/simulation.hpp"
#include "scenario/scenario.hpp"
#include "workload/rank_selection.hpp"

namespace zs::output {

/// What a timeline shows.
struct TimelineOptions {
  workload::RankSelection ranks;  ///< of the simulated ranks (collapsed: representatives), which to show
  double from = 0;                ///< window start, simulated s
  double to = std::numeric_limits<double>::infinity();  ///< window end, simulated s
  uint64_t max_bytes = 200'000'000;                     ///< size cap of the file, B
  uint32_t busiest_links = 8;  ///< counter tracks for this many link directions, the most loaded first
};

struct Timeline {
  std::string json;  ///< the file's content
  uint64_t events = 0;
  /// Set when the size cap was reached: events from this simulated time (s) on were left out.
  std::optional<double> cut_at;
};

/// The timeline of a run simulated with SimulationEvents::record_timeline. One process per simulated
/// rank (its tracks: one per stream of the trace, plus its state), one for the network (counter tracks
/// of link directions, memory pools and optical switches, exact fidelity only). Timestamps are
/// simulated microseconds; events are sorted, so the same run gives the same file. Throws
/// core::InputError (naming "--timeline-ranks") when the selection shows no simulated rank.
Timeline timeline_json(const scenario::Scenario& s, const engine::SimulationResult& r,
                       const TimelineOptions& options);

/// timeline_json written to `file` under the output-file rule (core::write_output_file): atomically, never
/// over a link, an input or a file zettasim did not write; a refusal or a failure is a core::InputError
/// naming `file.option`.
Timeline write_timeline_file(const core::OutputFile& file, const scenario::Scenario& s,
                             const engine::SimulationResult& r, const TimelineOptions& options);

}  // namespace zs::output
