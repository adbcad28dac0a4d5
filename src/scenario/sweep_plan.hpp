// A sweep ready to run: its axes checked against the base scenario, ranges and samples expanded, and the
// points combined and filtered; and the scenario of one point.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/sweep_spec.hpp"

namespace zs::scenario {

struct SweepPlan {
  SweepSpec spec;
  nlohmann::json base_resolved;  ///< the base scenario's resolved configuration
  std::vector<SweepPoint> points;
  LoadLimits limits;  ///< the bounds every point is loaded with
  /// The plugins the points' policies may come from (absolute files, load order): a point's process loads
  /// them before its scenario.
  std::vector<std::string> plugins;

  /// Loads the base scenario and checks every axis against it: the pointer names a parameter a file sets
  /// (a default the file leaves out is set by trying the base's own value), every value is of the
  /// parameter's kind (a quantity in its unit). Any problem is an InputError naming the sweep file and
  /// the axis's JSON path, raised before any point runs. Policies are looked up in `catalog`, whose plugins
  /// the plan records.
  static SweepPlan make(const core::FileSource& files, SweepSpec spec, const LoadLimits& limits = {},
                        const Catalog& catalog = Catalog());
  /// A plan from its parts (as a point's process reads them back), unchecked.
  static SweepPlan from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

/// The file source of a sweep's base: `files`, with the inline base scenario when there is one.
std::unique_ptr<core::FileSource> sweep_base_files(const core::FileSource& files, const SweepSpec& spec);

/// The scenario of point `index` of `plan`: the base with each axis's value set where its pointer leads.
/// A point that makes the scenario invalid is an InputError, as for any scenario; so is one whose
/// resolved configuration does not hold the value set. `catalog` holds the plan's plugins.
Scenario load_sweep_point(const core::FileSource& files, const SweepPlan& plan, uint64_t index,
                          const LoadLimits& limits = {}, const Catalog& catalog = Catalog());

}  // namespace zs::scenario
