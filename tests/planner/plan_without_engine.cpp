// zettasim plan without --predict, built from the planner's layers only (no engine, no SimGrid): a test
// runs it beside zettasim plan and checks that it links no SimGrid and writes the same folder.
#include <iostream>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "plugin/scenario_with_plugins.hpp"

int main(int argc, char** argv) {
  using namespace zs;
  if (argc != 3) {
    std::cerr << "usage: zs_plan_without_engine SCENARIO OUT\n";
    return 2;
  }
  try {
    core::DiskFileSource files;
    scenario::Catalog catalog;
    const scenario::Scenario s = plugin::load_scenario(files, argv[1], catalog, {});
    const planner::JobPlan plan = planner::make_job_plan(s, {}, catalog.policies);
    planner::write_plan_folder(argv[2], planner::plan_files(plan, planner::plan_json(plan)), false);
    std::cout << planner::plan_summary(plan);
  } catch (const core::InputError& e) {
    std::cerr << "zs_plan_without_engine: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
