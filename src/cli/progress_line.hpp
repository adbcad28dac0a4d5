// Progress of a long command on standard error: a line redrawn in place on a terminal, plain periodic
// lines otherwise, nothing for short runs or with --quiet.
#pragma once

#include <chrono>
#include <ostream>
#include <string>

#include "core/progress.hpp"

namespace zs::cli {

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
  /// `terminal`: redraw one line with '\r' (else plain lines); nothing at all when `quiet`.
  ProgressLine(std::ostream& err, bool terminal, bool quiet, ProgressPace pace = {});
  /// For standard error: terminal when it is one (isatty).
  static ProgressLine for_stderr(bool quiet);
  ~ProgressLine() override { finish(); }

  void report(const core::Progress& p) override;
  /// Clears the redrawn line (a terminal) so that what follows starts clean.
  void finish();

  /// The text of one report, `elapsed` s after the unit's first report: simulated time, done of total,
  /// rate and ETA.
  static std::string text(const core::Progress& p, double elapsed);

 private:
  std::ostream& err_;
  bool terminal_, quiet_;
  ProgressPace pace_;
  Clock::time_point start_ = Clock::now(), last_ = start_;
  Clock::time_point phase_start_ = start_;  ///< when reports of the current unit began
  size_t drawn_ = 0;                        ///< characters of the line on the terminal now
  const char* unit_ = "";                   ///< the unit of the last report: a new one restarts the rate
};

}  // namespace zs::cli
