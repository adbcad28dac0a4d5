// The progress line of a sweep.
#include "batch/sweep_progress.hpp"

#include <cstdio>
#include <string>

namespace zs::batch {

SweepProgress::SweepProgress(std::ostream& out, uint64_t total, uint64_t already, bool terminal, bool quiet,
                             double every_s)
    : total_(total),
      already_(already),
      line_(out, terminal, quiet, {0.0, 0.2, every_s}),
      start_(std::chrono::steady_clock::now()) {}

void SweepProgress::finished(bool failed) {
  ++done_;
  failed_ += failed;
  print(false);
}

void SweepProgress::running(uint64_t n) {
  running_ = n;
  print(false);
}

void SweepProgress::done() {
  print(true);
  line_.finish(true);
}

void SweepProgress::print(bool force) {
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  const uint64_t left = total_ - already_ - done_;
  char line[200];
  std::snprintf(
      line, sizeof line, "sweep: %llu/%llu points done, %llu running, %llu not ok, %.2f points/s, %s left",
      static_cast<unsigned long long>(already_ + done_), static_cast<unsigned long long>(total_),
      static_cast<unsigned long long>(running_), static_cast<unsigned long long>(failed_), rate,
      rate > 0
          ? (std::to_string(static_cast<long long>(static_cast<double>(left) / rate + 0.5)) + " s").c_str()
          : "unknown time");
  line_.show(line, force);
}

}  // namespace zs::batch
