// Runs one point of a sweep in this process and records its result.
#include "batch/sweep_point_run.hpp"

#include "batch/sweep_journal.hpp"
#include "core/input_error.hpp"
#include "output/run_record.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::batch {

nlohmann::json run_sweep_point(const core::FileSource& files, const scenario::SweepPlan& plan, uint64_t index,
                               const scenario::LoadLimits& limits, const scenario::Catalog& catalog) {
  nlohmann::json record = {{"point", index}};
  try {
    scenario::Scenario s = scenario::load_sweep_point(files, plan, index, limits, catalog);
    s.resolved["fidelity"] = core::to_string(s.fidelity);
    const engine::SimulationResult result = study::simulate_scenario(s, catalog.policies);
    record["status"] = point_statuses().name(PointStatus::kOk);
    record["summary"] = output::summary_json(s, result);
    record["config"] = output::config_json(s);
  } catch (const core::InputError& e) {
    record["status"] = point_statuses().name(PointStatus::kInvalid);
    record["error"] = e.what();
  }
  return record;
}

}  // namespace zs::batch
