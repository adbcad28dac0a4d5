// Validation rows simulated and summarized.
#include "study/validation_study.hpp"

#include "core/input_error.hpp"
#include "study/override_loader.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::study {
namespace {

scenario::RowResult run_row(const core::FileSource& files, const scenario::ValidationSpec& spec,
                            const scenario::ValidationRow& row) {
  scenario::RowResult result{row, std::nullopt, 0.0, ""};
  const auto composed = scenario::row_scenario(spec, row);
  const core::OverlayFileSource overlay(files, composed.files);
  try {
    const scenario::Scenario s =
        load_with_overrides(overlay, composed.scenario_path, spec.overrides, "row " + row.name());
    const engine::SimulationResult sim = simulate_scenario(s);
    result.iteration_s = sim.replay.iteration_time.value();
    result.predicted_tflops = scenario::megatron_flops_per_iteration(row, spec.seq_len, spec.vocab) /
                              (result.iteration_s * row.gpus) / 1e12;
  } catch (const OverrideError&) {
    throw;
  } catch (const core::InputError& e) {
    result.failure = e.what();
  }
  return result;
}

}  // namespace

ValidationStudy run_validation(const core::FileSource& files, const scenario::ValidationSpec& spec,
                               core::ProgressSink* progress) {
  ValidationStudy result;
  for (const auto& row : spec.rows) {
    result.rows.push_back(run_row(files, spec, row));
    if (progress != nullptr) progress->report({double(result.rows.size()), double(spec.rows.size()), "rows"});
  }
  result.summary = scenario::summarize(spec, result.rows);
  return result;
}

}  // namespace zs::study
