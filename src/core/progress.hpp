// How a long computation tells a front end how far it got (simulated time, work done of its total).
#pragma once

namespace zs::core {

struct Progress {
  double done = 0;        ///< in `unit`s
  double total = 0;       ///< in `unit`s; 0 when not known
  const char* unit = "";  ///< what is counted: "ops", "seeds", "rows"
  double simulated = -1;  ///< simulated time reached, s; negative when it does not apply
};

/// Receives reports from the computing thread, often (every few thousand ops): it decides what to show
/// and when, and must be cheap when it shows nothing.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void report(const Progress& progress) = 0;
};

}  // namespace zs::core
