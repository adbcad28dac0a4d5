// Drawing progress: throttled, in place on a terminal, plain lines in logs.
#include "batch/progress_line.hpp"

#include <cstdio>
#include <cstring>
#include <iostream>

#include <unistd.h>

namespace zs::batch {

ProgressLine::ProgressLine(std::ostream& err, bool terminal, bool quiet, ProgressPace pace)
    : err_(err), terminal_(terminal), quiet_(quiet), pace_(pace) {}

ProgressLine ProgressLine::for_stderr(bool quiet) {
  return ProgressLine(std::cerr, ::isatty(2) == 1, quiet);
}

std::string ProgressLine::text(const core::Progress& p, double elapsed) {
  char line[200];
  int n = 0;
  if (p.simulated >= 0) n += std::snprintf(line + n, sizeof line - n, "simulated %.4g s, ", p.simulated);
  n += std::snprintf(line + n, sizeof line - n, "%.0f", p.done);
  if (p.total > 0) n += std::snprintf(line + n, sizeof line - n, " of %.0f", p.total);
  n += std::snprintf(line + n, sizeof line - n, " %s", p.unit);
  if (p.total > 0) n += std::snprintf(line + n, sizeof line - n, " (%.0f%%)", 100 * p.done / p.total);
  const double rate = elapsed > 0 ? p.done / elapsed : 0;
  n += std::snprintf(line + n, sizeof line - n, ", %.3g %s/s", rate, p.unit);
  if (p.total > 0 && rate > 0 && p.done < p.total)
    std::snprintf(line + n, sizeof line - n, ", about %.0f s left", (p.total - p.done) / rate);
  return line;
}

void ProgressLine::report(const core::Progress& p) {
  if (quiet_) return;
  const auto now = Clock::now();
  if (std::strcmp(p.unit, unit_) != 0) {
    if (*unit_ != '\0') phase_start_ = now;  // a later phase: its own rate
    unit_ = p.unit;
  }
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (elapsed < pace_.quiet_for || since < (terminal_ ? pace_.redraw_every : pace_.plain_every)) return;
  show("progress: " + text(p, std::chrono::duration<double>(now - phase_start_).count()), true);
}

void ProgressLine::show(const std::string& line, bool force) {
  if (quiet_) return;
  const auto now = Clock::now();
  if (!force) {
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (elapsed < pace_.quiet_for || since < (terminal_ ? pace_.redraw_every : pace_.plain_every)) return;
  }
  last_ = now;
  if (terminal_) {
    err_ << "\r\x1b[K" << line << std::flush;
    drawn_ = true;
  } else {
    err_ << line << '\n' << std::flush;
  }
}

void ProgressLine::finish(bool keep) {
  if (!drawn_) return;
  err_ << (keep ? "\n" : "\r\x1b[K") << std::flush;
  drawn_ = false;
}

}  // namespace zs::batch
