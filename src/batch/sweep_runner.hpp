// `zettasim sweep`: plans a sweep, runs its unfinished points as processes and writes the results file.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/local_backend.hpp"
#include "batch/slurm_backend.hpp"
#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"

namespace zs::batch {

struct SweepOptions {
  std::string spec;            ///< the sweep file
  std::string out;             ///< the HDF5 file; empty: results/NAME.h5
  std::string csv;             ///< also write the table as CSV here, when set
  unsigned jobs = 0;           ///< points at once; 0: one per core (the local backend)
  bool slurm = false;          ///< run the points as a Slurm job array instead of on this machine
  SlurmOptions slurm_options;  ///< set fields override the sweep file's "slurm" section
  bool resume = false;         ///< require the journal to hold this same sweep (never discard another's)
  bool quiet = false;          ///< no progress line
  bool force = false;          ///< replace an --out or --csv file that a sweep did not write
  bool terminal = false;       ///< the progress line is redrawn in place
  PointCommand command;        ///< how a point's process is started
  std::vector<std::string> plugins;  ///< policy plugins (--plugin), loaded before the base's own
  scenario::LoadLimits limits;
};

struct SweepOutcome {
  std::string out;
  uint64_t points = 0, ok = 0, invalid = 0, failed = 0;
  uint64_t resumed = 0;  ///< points an earlier run had finished
  /// Every point's record, in point order: "status", and "summary" (ok) or "error".
  std::vector<nlohmann::json> records;
};

/// Reads and checks the sweep (exit-2 problems are InputErrors naming the sweep file), opens its journal
/// (OUT.journal), runs the points it does not hold and writes OUT (and the CSV) from every point's record.
SweepOutcome run_sweep(const core::FileSource& files, const SweepOptions& options,
                       std::ostream& progress_out);

/// What one Slurm array task does (`zettasim sweep-chunk`).
void run_journalled_task(const std::string& journal_dir, uint64_t task, uint64_t tasks,
                         const PointCommand& command, unsigned jobs);

/// What a point's process does: runs point `index` of the sweep journalled in `journal_dir` and writes
/// its record there.
void run_journalled_point(const std::string& journal_dir, uint64_t index);

}  // namespace zs::batch
