// Runs one case of a regression suite in this process and records its result.
#include "batch/regression_case_run.hpp"

#include "core/input_error.hpp"
#include "output/goodput_report.hpp"
#include "output/run_record.hpp"
#include "plugin/scenario_with_plugins.hpp"
#include "scenario/regression_check.hpp"
#include "study/goodput_study.hpp"
#include "study/scenario_simulation.hpp"

namespace zs::batch {
namespace {

/// The case's study result, as its JSON file holds it.
nlohmann::json case_result(const core::FileSource& files, const scenario::RegressionCase& c,
                           const std::vector<std::string>& plugins) {
  core::OverlayFileSource patched(files, {{c.scenario, scenario::regression_case_scenario(files, c).dump()}});
  scenario::Catalog catalog;
  plugin::load_plugins(plugins, catalog);
  plugin::load_plugins(c.plugins, catalog);
  scenario::Scenario s = plugin::load_scenario(patched, c.scenario, catalog);
  s.resolved["fidelity"] = core::to_string(s.fidelity);
  if (c.goodput) {
    study::require_reliability_section(s, c.scenario);
    const auto held = std::make_shared<const scenario::Scenario>(std::move(s));
    return output::goodput_json(*held, study::run_goodput_study(held, c.scenario, {}, catalog.policies));
  }
  return output::summary_json(s, study::simulate_scenario(s, catalog.policies));
}

}  // namespace

nlohmann::json run_regression_case(const core::FileSource& files, const scenario::RegressionSuite& suite,
                                   size_t index, const std::vector<std::string>& plugins) {
  const scenario::RegressionCase& c = suite.cases.at(index);
  nlohmann::json record = {{"case", c.name}};
  try {
    record["result"] = case_result(files, c, plugins);
    record["status"] = scenario::case_statuses().name(scenario::CaseStatus::kOk);
  } catch (const core::InputError& e) {
    record["status"] = scenario::case_statuses().name(scenario::CaseStatus::kError);
    record["error"] = e.what();
  } catch (const std::exception& e) {
    record["status"] = scenario::case_statuses().name(scenario::CaseStatus::kError);
    record["error"] = "internal error: " + core::one_line(e.what());
  }
  return record;
}

}  // namespace zs::batch
