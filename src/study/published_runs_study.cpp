// Published runs simulated and summarized.
#include "study/published_runs_study.hpp"

#include "core/input_error.hpp"
#include "study/override_loader.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::study {
namespace {

scenario::PublishedRunResult run_one(const core::FileSource& files, const scenario::PublishedRunsSpec& spec,
                                     const scenario::PublishedRun& run) {
  scenario::PublishedRunResult result{run, std::nullopt, 0, 0.0, "", {}, 0.0, 0, 0.0};
  try {
    const scenario::Scenario s = load_with_overrides(files, run.scenario, spec.overrides, "run " + run.name);
    result.gpus = s.trace.mesh.size();
    result.tokens_per_iteration = s.trace.tokens_per_iteration;
    result.model_flops = s.trace.model_flops.value();
    if (s.megatron) {
      const workload::ParallelPlan& plan = s.megatron->plan;
      result.layers_per_stage = double(s.megatron->model.layers) / plan.pipeline_parallel;
      result.micro_batches = plan.micro_batches();
    }
    const engine::SimulationResult simulated = simulate_scenario(s);
    result.predicted_iteration_s = simulated.replay.iteration_time.value();
    const engine::RankBreakdown& critical = simulated.replay.critical();
    result.breakdown = {critical.compute.value(),         critical.exposed_comm.value(),
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
