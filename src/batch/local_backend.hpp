// Runs a sweep's points as processes of this machine, a few at a time.
#pragma once

#include <sys/types.h>
#include <string>
#include <vector>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_progress.hpp"

namespace zs::batch {

/// The command that runs points: `executable ARGS... JOURNAL_DIR INDEX...` (zettasim's "sweep-point").
struct PointCommand {
  std::string executable;
  std::vector<std::string> args;
};

/// Starts `words` (the executable, then its arguments) as a process, its stdout and stderr into `log`; it
/// gets SIGKILL when this process dies. Returns its pid.
pid_t start_process(const std::vector<std::string>& words, const std::string& log);

/// Runs each of `pending` as its own process, at most `jobs` at once, its output in the journal's log.
/// A process that ends without writing its point's record gets a "failed" record with its exit status
/// and last line; one killed from outside (SIGKILL, SIGTERM, SIGINT, SIGHUP) is marked to run again on
/// resume. The processes die with this one.
void run_points_locally(const SweepJournal& journal, const std::vector<uint64_t>& pending,
                        const PointCommand& command, unsigned jobs, SweepProgress& progress);

/// The record of a point whose process ended with wait status `status` without writing one.
nlohmann::json failed_record(uint64_t index, int status, const std::string& last_line);

/// The last non-empty line of a file ("" if none), at most 300 characters.
std::string last_line_of(const std::string& path);

}  // namespace zs::batch
