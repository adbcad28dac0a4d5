// A goodput study's timeline: the first seed's interruptions, each an instant on its component's track.
#include <doctest/doctest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "output/goodput_timeline.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

TEST_CASE("the goodput timeline holds the first seed's interruptions at their times, a track per component") {
  // The timeline test case with a reliability section: Llama 3's failure rates over 5,000 days of its 64
  // units give a hundred-odd interruptions, and its iteration simulates in a fraction of a second.
  auto scenario_json =
      nlohmann::json::parse(test::read_text(test::source_file("tests/output/data/offload-pp4-ocs.json")));
  scenario_json["machine"] = test::source_file("topologies/disaggregated-64.machine.json");
  scenario_json["workload"]["model"] = test::source_file("workloads/gpt3-1.3b.json");
  scenario_json["reliability"] = {
      {"failure_rates", test::source_file("models/reliability/llama3-405b-54d.json")},
      {"horizon", "5000d"},
      {"seeds", 1},
      {"checkpoint", {{"interval", "daly"}, {"bandwidth", "2TB/s"}}},
      {"detection", "5min"},
      {"restart", "10min"},
      {"repair", "2d"}};
  test::TempDir dir;
  const std::string file = dir.write("scenario.json", scenario_json.dump());
  core::DiskFileSource files;
  const auto held = std::make_shared<const scenario::Scenario>(scenario::ScenarioLoader(files).load(file));
  const scenario::Scenario& s = *held;
  const auto g = study::run_goodput_study(held, file);
  const auto& events = g.summary.first.timeline;
  REQUIRE(events.size() > 10);
  const auto doc = nlohmann::json::parse(output::goodput_timeline_json(s, g));
  std::map<int64_t, std::string> track_name;
  std::vector<nlohmann::json> instants;
  double horizon_us = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") track_name[e["tid"]] = e["args"]["name"];
    if (e["ph"] == "i") instants.push_back(e);
    if (e["ph"] == "X") horizon_us = e["dur"];
  }
  CHECK(horizon_us == g.horizon.value() * 1e6);
  REQUIRE(instants.size() == events.size());
  for (size_t k = 0; k < events.size(); ++k) {
    CAPTURE(k);
    CHECK(instants[k]["ts"].get<double>() == events[k].at * 1e6);
    CHECK(instants[k]["name"] == events[k].action);
    CHECK(track_name.at(instants[k]["tid"]) == events[k].component);
    CHECK(instants[k]["args"]["instance"] == events[k].instance);
    if (k > 0) CHECK(instants[k]["ts"].get<double>() >= instants[k - 1]["ts"].get<double>());
  }
}
