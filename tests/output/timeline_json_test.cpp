// Timelines: valid Trace Event Format, slices that add up to the run's breakdown, counters that average
// to its utilization, filters, the size cap, byte-identical reruns and a golden file.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "engine/busy_time.hpp"
#include "output/timeline_json.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"
#include "support/run_cli.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
using nlohmann::json;

namespace {

const char* kScenario = "tests/output/data/offload-pp4-ocs.json";

struct Run {
  scenario::Scenario s;
  engine::SimulationResult r;
};

Run simulate(const std::string& file = kScenario) {
  core::DiskFileSource files;
  Run run{scenario::ScenarioLoader(files).load(test::source_file(file)), {}};
  run.r = study::simulate_scenario(run.s, {}, true);
  return run;
}

/// Checks what the Trace Event Format requires of each event kind the file uses; returns the events.
json check_format(const std::string& text) {
  const json doc = json::parse(text);
  REQUIRE(doc.contains("traceEvents"));
  const json& events = doc["traceEvents"];
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<double, double>>> slices;  // (pid, tid)
  std::map<int64_t, int> flow_starts, flow_ends;
  std::map<std::pair<int64_t, std::string>, double> counter_last;
  double last_ts = -1;
  for (const auto& e : events) {
    CAPTURE(e.dump());
    REQUIRE(e.at("name").is_string());
    REQUIRE(e.at("pid").is_number_integer());
    const std::string ph = e.at("ph");
    REQUIRE(std::set<std::string>{"M", "X", "C", "s", "f", "i"}.count(ph) == 1);
    if (ph == "M") {
      REQUIRE(e.at("args").is_object());
      continue;
    }
    const double ts = e.at("ts");
    CHECK(ts >= last_ts);  // sorted
    last_ts = ts;
    if (ph == "X") {
      CHECK(e.at("dur").get<double>() >= 0);
      slices[{e.at("pid"), e.at("tid")}].emplace_back(ts, ts + e.at("dur").get<double>());
    } else if (ph == "C") {
      const auto key = std::make_pair(e.at("pid").get<int64_t>(), e.at("name").get<std::string>());
      auto last = counter_last.find(key);
      if (last != counter_last.end()) CHECK(ts > last->second);  // one value per instant, in time order
      counter_last[key] = ts;
      CHECK(e.at("args").at("utilization").get<double>() >= 0);
    } else if (ph == "s" || ph == "f") {
      (ph == "s" ? flow_starts : flow_ends)[e.at("id")]++;
      if (ph == "f") {
        CHECK(e.at("bp") == "e");
        CHECK(flow_starts.count(e.at("id")) == 1);  // its start came first
      }
    }
  }
  // Slices on one track nest properly: each starts after the one before has ended, or lies inside it
  // (streams are in-order queues, the state track tiles the time, a wait nests in its collective).
  for (auto& [track, spans] : slices) {
    std::sort(spans.begin(), spans.end(), [](auto a, auto b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;  // the enclosing one first
    });
    std::vector<std::pair<double, double>> open;
    for (const auto& s : spans) {
      while (!open.empty() && s.first >= open.back().second - 1e-6) open.pop_back();
      if (!open.empty()) CHECK(s.second <= open.back().second + 1e-6);
      open.push_back(s);
    }
  }
  // Every flow starts once and ends once, no earlier, each end inside a slice of its track.
  CHECK(flow_starts.size() == flow_ends.size());
  for (auto [id, n] : flow_starts) {
    CHECK(n == 1);
    CHECK(flow_ends[id] == 1);
  }
  for (const auto& e : events) {
    if (e.at("ph") != "s" && e.at("ph") != "f") continue;
    const double ts = e.at("ts");
    const auto& spans = slices[{e.at("pid"), e.at("tid")}];
    CHECK(std::any_of(spans.begin(), spans.end(), [&](auto s) { return s.first < ts && ts < s.second; }));
  }
  return events;
}

/// Time under a counter's steps over [0, end], divided by end.
double counter_average(const json& events, const std::string& name, double end_us) {
  double area = 0, at = 0, value = 0;
  for (const auto& e : events)
    if (e.at("ph") == "C" && e.at("name") == name) {
      area += value * (e.at("ts").get<double>() - at);
      at = e.at("ts");
      value = e.at("args").at("utilization");
    }
  return (area + value * (end_us - at)) / end_us;
}

}  // namespace

TEST_CASE("a timeline is valid Trace Event Format and adds up to the run's breakdown and utilization") {
  const Run run = simulate();
  const auto t = output::timeline_json(run.s, run.r, {});
  CHECK_FALSE(t.cut_at);
  const json events = check_format(t.json);
  const auto& crit = run.r.replay.critical();
  const int64_t pid = int64_t(run.r.replay.critical_rank);
  const int64_t state_tid = int64_t(run.s.trace.streams.size());
  std::map<std::string, double> state_us;
  std::map<std::string, int> categories;
  std::vector<engine::BusyTime::Interval> compute_slices;
  for (const auto& e : events) {
    if (e.at("ph") != "X") continue;
    categories[e.at("cat")]++;
    if (e.at("pid") != pid) continue;
    const double ts = e.at("ts"), dur = e.at("dur");
    if (e.at("tid") == state_tid) state_us[e.at("name")] += dur;
    if (e.at("cat") == "compute") compute_slices.emplace_back(ts, ts + dur);
  }
  // Every kind of op the case has is drawn.
  for (const char* c : {"compute", "collective", "p2p", "memory", "state", "wait"}) CHECK(categories[c] > 0);
  const double us = 1e6, tolerance = 1e-9;
  CHECK(state_us["compute"] == doctest::Approx(crit.compute.value() * us).epsilon(tolerance));
  CHECK(engine::union_length(compute_slices) ==
        doctest::Approx(crit.compute.value() * us).epsilon(tolerance));
  CHECK(state_us["exposed communication"] ==
        doctest::Approx(crit.exposed_comm.value() * us).epsilon(tolerance));
  CHECK(state_us["pipeline bubble"] == doctest::Approx(crit.pipeline_bubble.value() * us).epsilon(tolerance));
  CHECK(state_us["memory stall"] == doctest::Approx(crit.memory_stall.value() * us).epsilon(tolerance));
  CHECK(crit.pipeline_bubble.value() > 0);
  // The busiest link's counter averages to summary.json's link_max; the busiest pool's to memory_pool_max.
  const double end_us = run.r.replay.iteration_time.value() * us;
  const auto& u = run.r.utilization;
  REQUIRE(u.link_max > 0);
  CHECK(counter_average(events, "link " + u.link_max_name, end_us) ==
        doctest::Approx(u.link_max).epsilon(1e-9));
  double pool_max = 0;
  for (const auto& pool : run.s.machine.topology.memories())
    pool_max = std::max(
        pool_max, counter_average(events, "memory pool " + run.s.machine.topology.node(pool).name, end_us));
  REQUIRE(u.pool_max > 0);
  CHECK(pool_max == doctest::Approx(u.pool_max).epsilon(1e-9));
  // The reconfiguration at 100 ms, and the optical switch's counter.
  int reconfigurations = 0, optical = 0;
  for (const auto& e : events) {
    reconfigurations += e.at("ph") == "i" && e.at("ts") == 100000.0;
    optical += e.at("ph") == "C" && e.at("name") == "optical switch ocs0 circuits";
  }
  CHECK(reconfigurations == 1);
  CHECK(optical > 0);
}

TEST_CASE("the same run gives the same timeline byte for byte") {
  const Run a = simulate(), b = simulate();
  CHECK(output::timeline_json(a.s, a.r, {}).json == output::timeline_json(b.s, b.r, {}).json);
}

TEST_CASE("rank selection, time window and the size cap") {
  const Run run = simulate();
  output::TimelineOptions o;
  o.ranks = workload::RankSelection::parse("pp=1,tp=0", run.s.trace.mesh, "--timeline-ranks");
  o.from = 0.010;
  o.to = 0.030;
  const json events = check_format(output::timeline_json(run.s, run.r, o).json);
  std::set<int64_t> pids;
  for (const auto& e : events) {
    if (e.at("ph") != "X") continue;
    pids.insert(e.at("pid").get<int64_t>());
    const double ts = e.at("ts"), dur = e.at("dur");
    CHECK(ts <= 30000.0);
    CHECK(ts + dur >= 10000.0);
  }
  // Each counter starts at the window's start, with the level it has there.
  std::map<std::string, double> first_counter_ts;
  for (const auto& e : events)
    if (e.at("ph") == "C") first_counter_ts.emplace(e.at("name"), e.at("ts").get<double>());
  REQUIRE_FALSE(first_counter_ts.empty());
  for (const auto& counter : first_counter_ts) {  // not a structured binding: clang 14 cannot capture one
    CAPTURE(counter.first);
    CHECK(counter.second == 10000.0);
  }
  std::set<int64_t> expected;
  for (uint64_t r = 0; r < run.s.trace.mesh.size(); ++r)
    if (run.s.trace.mesh.coordinate(r, *run.s.trace.mesh.axis_index("pp")) == 1 &&
        run.s.trace.mesh.coordinate(r, *run.s.trace.mesh.axis_index("tp")) == 0)
      expected.insert(int64_t(r));
  CHECK(pids == expected);

  output::TimelineOptions capped;
  capped.max_bytes = 200'000;
  const auto t = output::timeline_json(run.s, run.r, capped);
  REQUIRE(t.cut_at);
  CHECK(t.json.size() <= capped.max_bytes);
  const json cut = check_format(t.json);
  for (const auto& e : cut)
    if (e.at("ph") != "M") CHECK(e.at("ts").get<double>() < *t.cut_at * 1e6);
  CHECK(json::parse(t.json)["otherData"]["cut_at_s"] == *t.cut_at);
}

TEST_CASE("a selection that shows no simulated rank is refused with one line") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(test::source_file("scenarios/hgx-3d-parallel.json"));
  s.fidelity = core::Fidelity::kCollapsed;
  const auto r = study::simulate_scenario(s, {}, true);
  REQUIRE(r.replay.ranks.size() < s.trace.mesh.size());
  output::TimelineOptions o;
  o.ranks = workload::RankSelection::parse(std::to_string(s.trace.mesh.size() - 1), s.trace.mesh,
                                           "--timeline-ranks");
  CHECK(test::input_error_of([&] {
          output::timeline_json(s, r, o);
        }).rfind("--timeline-ranks: selects none of the ", 0) == 0);
  // Collapsed: the representatives are named as such, and there are no link counters.
  const std::string text = output::timeline_json(s, r, {}).json;
  CHECK(text.find("(representative of ") != std::string::npos);
  CHECK(text.find("\"ph\":\"C\"") == std::string::npos);
  check_format(text);
}

TEST_CASE("golden timeline: two ranks of the offload case, written by the command line") {
  test::TempDir dir;
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(ZS_SOURCE_DIR);
  const auto r = test::run_cli({"run", kScenario, "--out", dir.file("out"), "--quiet", "--timeline",
                                dir.file("timeline.json"), "--timeline-ranks", "dp=0,tp=0,pp=0..1",
                                "--timeline-links", "4"});
  std::filesystem::current_path(before);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("timeline: " + dir.file("timeline.json") + " (") != std::string::npos);
  CHECK(test::read_text(dir.file("timeline.json")) ==
        test::read_text(test::source_file("tests/golden/timeline-offload-pp4-ocs/timeline.json")));
}

TEST_CASE("bad timeline options are one line and exit 2, before anything is simulated") {
  auto run = [](std::vector<std::string> extra) {
    test::TempDir dir;
    std::vector<std::string> args = {"run",
                                     test::source_file(kScenario),
                                     "--out",
                                     dir.file("out"),
                                     "--quiet",
                                     "--timeline",
                                     dir.file("t.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = test::run_cli(args);
    CHECK(r.code == 2);
    CHECK_FALSE(std::filesystem::exists(dir.file("out")));
    return r.err;
  };
  CHECK(run({"--timeline-window", "5..3ms"}) ==
        "zettasim: error: --timeline-window: \"5..3ms\": expected START..END, each a time such as 10ms or "
        "empty, "
        "got \"5\"\n");
  CHECK(run({"--timeline-window", "3ms..1ms"}) ==
        "zettasim: error: --timeline-window: \"3ms..1ms\": END is before START\n");
  CHECK(run({"--timeline-ranks", "ep=0"}) ==
        "zettasim: error: --timeline-ranks: \"ep=0\": no mesh axis \"ep\" (the mesh has pp, dp, tp)\n");
  CHECK(run({"--timeline-max-size", "12"}) ==
        "zettasim: error: --timeline-max-size: expected a size from 10kB to 1PB such as 200MB, got \"12\"\n");
}
