// Published runs simulated and summarized.
#include "study/published_runs_study.hpp"

#include <stdexcept>

#include "core/input_error.hpp"
#include "scenario/scenario_loader.hpp"
#include "scenario/scenario_patch.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::study {
namespace {

/// An override that cannot be set: the command's error, not one run's.
class OverrideError : public core::InputError {
 public:
  using core::InputError::InputError;
};

/// `run`'s scenario with every override set where its pointer leads. A pointer that leads nowhere, a
/// scenario the overrides make invalid, or a number or switch the loaded scenario does not hold as set, is
/// an OverrideError.
scenario::Scenario load_run(const core::FileSource& files, const scenario::PublishedRunsSpec& spec,
                            const scenario::PublishedRun& run) {
  scenario::Scenario s = scenario::ScenarioLoader(files).load(run.scenario);
  if (spec.overrides.empty()) return s;
  scenario::ScenarioPatch patch(files, run.scenario, s.resolved);
  for (const auto& o : spec.overrides) {
    try {
      patch.set(o.pointer, o.value, run.scenario, "zettasim validate --set");
    } catch (const std::invalid_argument& e) {
      throw OverrideError("--set", o.pointer, std::string(e.what()) + " (run " + run.name + ")");
    }
  }
  core::OverlayFileSource patched(files, patch.files());
  try {
    s = scenario::ScenarioLoader(patched).load(run.scenario);
  } catch (const core::InputError& e) {  // the run loads without the overrides: they make it invalid
    throw OverrideError("--set", "", "run " + run.name + " with what --set sets: " + e.what());
  }
  for (const auto& o : spec.overrides) {
    const nlohmann::json& got = s.resolved.at(nlohmann::json::json_pointer(o.pointer));
    if ((o.value.is_number() || o.value.is_boolean()) && got != o.value)
      throw OverrideError("--set", o.pointer,
                          "set to " + o.value.dump() + ", but run " + run.name + " resolved it to " +
                              got.dump() + " (zettasim derives it from other values)");
  }
  return s;
}

scenario::PublishedRunResult run_one(const core::FileSource& files, const scenario::PublishedRunsSpec& spec,
                                     const scenario::PublishedRun& run) {
  scenario::PublishedRunResult result{run, std::nullopt, 0, 0.0, "", {}};
  try {
    const scenario::Scenario s = load_run(files, spec, run);
    result.gpus = s.trace.mesh.size();
    result.tokens_per_iteration = s.trace.tokens_per_iteration;
    const engine::SimulationResult simulated = simulate_scenario(s);
    result.predicted_iteration_s = simulated.replay.iteration_time.value();
    const engine::RankBreakdown& critical = simulated.replay.critical();
    result.breakdown = {critical.compute.value(), critical.exposed_comm.value(),
                        critical.pipeline_bubble.value(), critical.memory_stall.value(),
                        critical.collective_wait.value(), critical.idle.value()};
  } catch (const OverrideError&) {
    throw;
  } catch (const core::InputError& e) {
    result.failure = e.what();
  }
  return result;
}

}  // namespace

PublishedRunsStudy run_published_runs(const core::FileSource& files, const scenario::PublishedRunsSpec& spec,
                                      core::ProgressSink* progress) {
  PublishedRunsStudy result;
  for (const auto& run : spec.runs) {
    result.runs.push_back(run_one(files, spec, run));
    if (progress != nullptr) progress->report({double(result.runs.size()), double(spec.runs.size()), "runs"});
  }
  result.summary = scenario::summarize(spec, result.runs);
  return result;
}

}  // namespace zs::study
