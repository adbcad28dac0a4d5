// The progress line of a sweep: points done of total, running, failed, rate and time left.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>

#include "batch/progress_line.hpp"

namespace zs::batch {

class SweepProgress {
 public:
  /// `total` points of which `already` were finished by an earlier run; on a terminal the line is
  /// redrawn in place, otherwise a plain line is printed at most every `every` seconds.
  SweepProgress(std::ostream& out, uint64_t total, uint64_t already, bool terminal, bool quiet,
                double every_s = 5.0);
  /// A point finished (`failed`: invalid, or its process failed).
  void finished(bool failed);
  void running(uint64_t n);
  /// Nothing changed: prints the line again when it is due (the rate and time left move on).
  void tick() { print(false); }
  /// The last line, always printed (unless quiet).
  void done();

 private:
  void print(bool force);

  uint64_t total_, already_, done_ = 0, failed_ = 0, running_ = 0;
  ProgressLine line_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace zs::batch
