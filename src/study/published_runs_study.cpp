// Published runs simulated and summarized.
#include "study/published_runs_study.hpp"

#include "core/input_error.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::study {
namespace {

scenario::PublishedRunResult run_one(const core::FileSource& files, const scenario::PublishedRun& run) {
  scenario::PublishedRunResult result{run, std::nullopt, 0, 0.0, ""};
  try {
    const scenario::Scenario s = scenario::ScenarioLoader(files).load(run.scenario);
    result.gpus = s.trace.mesh.size();
    result.tokens_per_iteration = s.trace.tokens_per_iteration;
    result.predicted_iteration_s = simulate_scenario(s).replay.iteration_time.value();
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
    result.runs.push_back(run_one(files, run));
    if (progress != nullptr) progress->report({double(result.runs.size()), double(spec.runs.size()), "runs"});
  }
  result.summary = scenario::summarize(spec, result.runs);
  return result;
}

}  // namespace zs::study
