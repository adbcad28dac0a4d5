// A sweep file: a base scenario, the parameters it varies (axes) and the points they combine into.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/param_table.hpp"
#include "scenario/sweep_value.hpp"

namespace zs::scenario {

/// One varied parameter: where it lives in the resolved configuration and the values it takes.
struct SweepAxis {
  std::string name;     ///< its column in the results (a safe identifier)
  std::string pointer;  ///< JSON pointer into the resolved configuration, as config.json shows it
  std::string where;    ///< the axis's JSON path in the sweep file, for errors
  /// The values as a file writes them; filled by the spec for lists and ranges, and for a sampled axis
  /// once the samples are drawn.
  std::vector<nlohmann::json> values;
  /// A sampled axis's bounds and scale (`sample`); its values come from SweepSpec::samples.
  bool sampled = false;
  nlohmann::json sample_from, sample_to;
  bool sample_log = false;
  /// A range (`range`), expanded once the parameter's kind is known.
  bool ranged = false;
  nlohmann::json range_from, range_to;
  int64_t range_steps = 0;
  bool range_log = false;
  /// The kind of the parameter's value in the base (set by SweepPlan).
  SweepValueKind kind = SweepValueKind::kText;
};

/// One point of a sweep: the value of each axis, in the spec's axis order.
struct SweepPoint {
  uint64_t index = 0;
  std::vector<nlohmann::json> values;
};

/// The sweep file's "slurm" section: what `sbatch` is given when the sweep runs on Slurm.
struct SweepSlurm {
  std::string partition, time_limit, account;  ///< empty: Slurm's default
  std::vector<std::string> options;            ///< further sbatch options, as written
  uint64_t tasks = 0;                          ///< array tasks; 0: one per point, at most 1000
};

/// A sweep file as read: every key checked, nothing run. Axis values that need the base's parameter kind
/// (ranges, samples, quantity units) are checked and expanded by SweepPlan.
struct SweepSpec {
  std::string file;
  std::string name;
  std::string description;
  uint64_t seed = 1;
  /// The base scenario: its path as given (relative to the working folder) and, when inline, its JSON
  /// (then `base_path` is the virtual "SWEEPFILE#base", beside the sweep file).
  std::string base_path;
  bool base_inline = false;
  nlohmann::json base_json;
  std::vector<SweepAxis> axes;
  bool zip = false;                     ///< "zip": the i-th values of every axis together; else the grid
  uint64_t sample_count = 0;            ///< points drawn for the sampled axes (together)
  bool latin_hypercube = false;         ///< else independent uniform draws
  std::vector<nlohmann::json> exclude;  ///< objects: axis name → value; a point matching one is dropped
  SweepSlurm slurm;
  nlohmann::json resolved;  ///< the spec as read, for the results' attributes

  /// Reads and checks a sweep file ({"kind": "sweep"}); every problem is an InputError naming the file
  /// and JSON path.
  static SweepSpec load(const core::FileSource& files, const std::string& path);
};

/// The parameter tables of a sweep file (for `zettasim params`).
const core::ParamTable& sweep_params();
const core::ParamTable& sweep_axis_params();
const core::ParamTable& sweep_range_params();
const core::ParamTable& sweep_sample_params();
const core::ParamTable& sweep_samples_params();
const core::ParamTable& sweep_slurm_params();

}  // namespace zs::scenario
