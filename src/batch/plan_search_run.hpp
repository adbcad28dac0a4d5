// `zettasim search`: tier 1 over the plan space, tier 2 through the sweep runner, the results folder.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "batch/local_backend.hpp"
#include "batch/slurm_backend.hpp"
#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "search/search_result.hpp"

namespace zs::batch {

struct SearchOptions {
  std::string scenario;  ///< the scenario file
  std::string out;       ///< the results folder; empty: results/NAME-search
  search::Objective objective = search::Objective::kTime;
  size_t top = 16;             ///< finalists through the engine (each with every placement searched); 0: none
  double budget_s = 0;         ///< tier 1's wall-time budget, s; 0: none
  unsigned jobs = 0;           ///< finalists at once on this machine; 0: one per core
  bool slurm = false;          ///< run the finalists as a Slurm job array
  SlurmOptions slurm_options;  ///< sbatch settings
  bool quiet = false;          ///< no progress lines
  bool force = false;          ///< replace a results folder that zettasim did not write
  bool terminal = false;       ///< progress lines redrawn in place
  PointCommand command;        ///< how a finalist's process is started (`zettasim sweep-point`)
  std::vector<std::string> plugins;
  scenario::LoadLimits limits;
  /// Only plans whose Megatron-LM arguments say all the plan says (what `zettasim plan` writes for them
  /// leaves out nothing the scenario's own plan does not): the search a planner runs.
  bool megatron_expressible = false;
};

struct SearchOutcome {
  std::string out;  ///< the results folder
  search::SearchResult result;
};

/// Loads the scenario, runs tier 1, runs the finalists and the scenario's own plan as points of a sweep
/// kept in OUT.tier2 (its journal makes a rerun resume), and writes OUT atomically: search.json,
/// report.txt, tier1.csv, finalists.csv and best.scenario.json (the best plan as a scenario file that
/// `run` and `plan` accept). Bad input is a core::InputError.
SearchOutcome run_search(const core::FileSource& files, const SearchOptions& options,
                         std::ostream& progress_out);

}  // namespace zs::batch
