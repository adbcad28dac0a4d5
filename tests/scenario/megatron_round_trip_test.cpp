// Every shipped Megatron-LM job, written as Megatron-LM's arguments and read back, is the same job.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/shipped_scenarios.hpp"
#include "workload/megatron_arguments.hpp"

using namespace zs;

namespace {

nlohmann::json read_scenario_document(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str());
}

/// config.json's workload part and derived workload part, without what the arguments add.
nlohmann::json megatron_job_of(const scenario::Scenario& s) {
  nlohmann::json w = s.resolved.at("workload");
  w.erase("megatron_arguments");
  nlohmann::json d = s.resolved.at("derived").at("workload");
  d.erase("megatron_arguments");
  return {{"workload", w}, {"derived", d}};
}

}  // namespace

TEST_CASE("plan -> Megatron-LM arguments -> plan is the identity for every shipped scenario") {
  core::DiskFileSource disk;
  int jobs = 0;
  for (const auto& path : test::shipped_scenario_paths()) {
    CAPTURE(path);
    const auto s = scenario::ScenarioLoader(disk).load(path);
    if (!s.megatron) continue;
    ++jobs;
    nlohmann::json doc = read_scenario_document(path);
    nlohmann::json section = workload::megatron_section(*s.megatron, s.resolved.at("workload"));
    section["generator"] = "megatron";
    section["model"] = doc.at("workload").at("model");
    doc["workload"] = section;
    core::OverlayFileSource files(disk, {{path, doc.dump()}});
    const auto back = scenario::ScenarioLoader(files).load(path);
    CHECK(megatron_job_of(back) == megatron_job_of(s));
    REQUIRE(back.megatron);
    CHECK(back.megatron->plan.describe() == s.megatron->plan.describe());
    REQUIRE(back.trace.roles.size() == s.trace.roles.size());
    for (size_t r = 0; r < s.trace.roles.size(); ++r)
      CHECK(back.trace.roles[r].ops.size() == s.trace.roles[r].ops.size());
    CHECK(back.trace.model_flops.value() == s.trace.model_flops.value());
  }
  CHECK(jobs >= 10);
}

TEST_CASE(
    "a scenario given as Megatron-LM arguments plans the job its keys plan, and reports what it ignored") {
  core::DiskFileSource disk;
  const std::string dir = std::string(ZS_SOURCE_DIR) + "/scenarios/planner/";
  const auto keys = scenario::ScenarioLoader(disk).load(dir + "gpt3-1.3b-hgx-h100-4node.json");
  const auto args = scenario::ScenarioLoader(disk).load(dir + "gpt3-1.3b-megatron-arguments.json");
  CHECK(megatron_job_of(args)["workload"] == megatron_job_of(keys)["workload"]);
  CHECK(args.workload_summary == keys.workload_summary);
  REQUIRE(!args.workload_notes.empty());
  for (const auto& note : args.workload_notes) CHECK(note.rfind("Megatron-LM arguments: ignored --", 0) == 0);
  CHECK(args.resolved.at("derived").at("workload").at("megatron_arguments") == args.workload_notes);
}
