// Runs a sweep's points as a Slurm job array: each array task runs its share of the points, each point as
// a process of its own, writing its record to the sweep's journal (on a file system the nodes share).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "batch/local_backend.hpp"
#include "batch/sweep_journal.hpp"
#include "batch/sweep_progress.hpp"

namespace zs::batch {

/// What `sbatch` is given: from the sweep file's "slurm" section, the command line overriding.
struct SlurmOptions {
  std::string partition;           ///< --partition, when set
  std::string time_limit;          ///< --time (Slurm's format, "1:00:00"), when set
  std::string account;             ///< --account, when set
  std::vector<std::string> extra;  ///< further sbatch options, as given
  uint64_t tasks = 0;              ///< array tasks; 0: one per pending point, at most 1000
};

/// Submits one job array for the points of `pending` not finished (listed in the journal's
/// slurm/points.json; task k runs those whose place in the list is k modulo the task count), waits for it
/// while counting the records written, and gives every point left without a record a "failed" record (to run
/// again on resume). A job of an earlier run of this sweep that is still queued or running is waited for
/// first. sbatch, squeue and the nodes see the journal at the same path.
void run_points_on_slurm(const SweepJournal& journal, const std::vector<uint64_t>& pending,
                         const PointCommand& command, const SlurmOptions& slurm, SweepProgress& progress);

/// What one array task does (`zettasim sweep-chunk`): runs the unfinished points of its share of the job's
/// list, one process per point, `jobs` at once.
void run_slurm_task(const std::string& journal_dir, uint64_t task, uint64_t tasks,
                    const PointCommand& command, unsigned jobs);

}  // namespace zs::batch
