// A progress line on standard error: redrawn in place on a terminal, plain periodic lines otherwise,
// nothing for short runs or with --quiet. Runs (ops, seeds, rows) and sweeps (points) draw through it.
#pragma once

#include <chrono>
#include <ostream>
#include <string>

#include "core/progress.hpp"

namespace zs::batch {

/// When a ProgressLine draws, s: nothing before `quiet_for` has passed; then at most every `redraw_every`
/// on a terminal, every `plain_every` without one.
struct ProgressPace {
  double quiet_for = 2.0;
  double redraw_every = 0.25;
  double plain_every = 10.0;
};

class ProgressLine : public core::ProgressSink {
 public:
  using Clock = std::chrono::steady_clock;
  /// `terminal`: redraw one line in place (else plain lines); nothing at all when `quiet`.
  ProgressLine(std::ostream& err, bool terminal, bool quiet, ProgressPace pace = {});
  /// On standard error: a terminal when it is one (isatty).
  static ProgressLine for_stderr(bool quiet);
  ~ProgressLine() override { finish(); }
  ProgressLine(ProgressLine&&) = default;

  /// "progress: " and text(p), when due.
  void report(const core::Progress& p) override;
  /// Draws `line` when due by the pace, or now when `force`.
  void show(const std::string& line, bool force = false);
  /// On a terminal, ends the line drawn: clears it, or with `keep` leaves it and starts a new one.
  void finish(bool keep = false);

  /// The text of one report, `elapsed` s after the unit's first report: simulated time, done of total,
  /// rate and what is left.
  static std::string text(const core::Progress& p, double elapsed);

 private:
  std::ostream& err_;
  bool terminal_, quiet_;
  ProgressPace pace_;
  Clock::time_point start_ = Clock::now(), last_ = start_;
  Clock::time_point phase_start_ = start_;  ///< when reports of the current unit began
  bool drawn_ = false;                      ///< a line is on the terminal now
  const char* unit_ = "";                   ///< the unit of the last report: a new one restarts the rate
};

}  // namespace zs::batch
