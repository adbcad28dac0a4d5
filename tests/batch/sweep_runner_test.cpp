// `zettasim sweep` on a small sweep: the same summaries as `zettasim run` point by point, invalid points
// recorded, the same bytes whatever the job count, resumed after being killed at random moments, and a
// results file that h5py, pandas and h5dump read.
#include <doctest/doctest.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <thread>
#include <tuple>

#include <sys/wait.h>
#include <unistd.h>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_support.hpp"
#include "core/splitmix.hpp"
#include "support/run_cli.hpp"
#include "support/run_zettasim.hpp"

using namespace zs;

namespace {

nlohmann::json record_of(const std::string& out, uint64_t index) {
  return nlohmann::json::parse(
      test::read_text(batch::journal_dir(out) / "points" / (std::to_string(index) + ".json")));
}

/// Starts `zettasim sweep` as a process of its own; returns its pid.
pid_t start_sweep(const std::string& spec, const std::string& out) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stdout);
    ::execl(ZS_ZETTASIM, ZS_ZETTASIM, "sweep", spec.c_str(), "--out", out.c_str(), "--jobs", "2", "--quiet",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  return pid;
}

}  // namespace

TEST_CASE("a local sweep gives, for every point, the summary zettasim run gives for that scenario") {
  test::SmallSweep s;
  const batch::SweepOutcome r = batch::run_sweep(core::DiskFileSource(), s.options("small.h5"), std::cerr);
  CHECK(r.points == 12);
  CHECK(r.ok == 8);
  CHECK(r.invalid == 4);  // micro-batch 3 divides no global batch of 16 with 4 or 8 ranks
  CHECK(r.failed == 0);
  uint64_t index = 0;
  for (int dp : {4, 8})
    for (int mb : {1, 2, 3})
      for (const char* collective : {"ring", "double-binary-tree"}) {
        CAPTURE(index);
        test::ScenarioFiles point = s.scenario;
        point.scenario["workload"]["data_parallel"] = dp;
        point.scenario["workload"]["micro_batch"] = mb;
        point.scenario["policies"]["collective"] = collective;
        const std::string path = s.dir.write("point.json", point.scenario.dump());
        const auto run = test::run_cli({"run", path, "--out", s.dir.file("run"), "--quiet"});
        const nlohmann::json record = record_of(s.dir.file("small.h5"), index++);
        if (mb == 3) {
          CHECK(run.code == 2);
          CHECK(record.at("status") == "invalid");
          CHECK(record.at("error").get<std::string>().find(
                    "/workload/global_batch: global batch 16 is not a multiple") != std::string::npos);
          continue;
        }
        REQUIRE(run.code == 0);
        CHECK(record.at("status") == "ok");
        CHECK(record.at("summary") ==
              nlohmann::json::parse(test::read_text(s.dir.path() / "run" / "summary.json")));
      }
}

TEST_CASE("a sweep's results are the same bytes whatever the number of jobs") {
  test::SmallSweep s;
  batch::run_sweep(core::DiskFileSource(), s.options("one.h5", 1), std::cerr);
  batch::run_sweep(core::DiskFileSource(), s.options("three.h5", 3), std::cerr);
  CHECK(test::read_text(s.dir.file("one.h5")) == test::read_text(s.dir.file("three.h5")));
}

TEST_CASE("a sweep killed at random moments and run again ends with the file of an uninterrupted sweep") {
  test::SmallSweep s;
  batch::run_sweep(core::DiskFileSource(), s.options("whole.h5"), std::cerr);
  const std::string out = s.dir.file("killed.h5");
  core::SplitMixStream random(2026);
  int kills = 0;
  bool finished = false;
  for (int attempt = 0; attempt < 40 && !finished; ++attempt) {
    const pid_t pid = start_sweep(s.spec, out);
    int status = 0;
    pid_t ended = 0;
    if (attempt < 8) {  // killed after 0 to 0.3 s (the whole sweep takes about that), then left to finish
      std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int>(random.uniform() * 300000)));
      ended = ::waitpid(pid, &status, WNOHANG);
      if (ended == 0) {
        ::kill(pid, SIGKILL);
        ++kills;
      }
    }
    if (ended == 0) ended = ::waitpid(pid, &status, 0);
    finished = ended == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  REQUIRE(finished);
  CHECK(kills > 0);
  REQUIRE(std::filesystem::exists(out));
  CHECK(test::read_text(out) == test::read_text(s.dir.file("whole.h5")));
  for (const auto& entry : std::filesystem::recursive_directory_iterator(batch::journal_dir(out)))
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
}

TEST_CASE("zettasim sweep writes an HDF5 file that h5py, pandas and h5dump read, and the same table as CSV") {
  test::SmallSweep s;
  const auto r = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("small.h5"), "--csv",
                                            s.dir.file("small.csv"), "--jobs", "2", "--quiet"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find("sweep: 12 points (8 ok, 4 invalid, 0 failed; 0 from an earlier run)") == 0);
  const std::string check = std::string(ZS_PYTHON) + " " + ZS_SOURCE_DIR + "/tests/batch/read_sweep.py " +
                            s.dir.file("small.h5") + " " + s.dir.file("small.csv") + " 12";
  CHECK(std::system(check.c_str()) == 0);
  const std::string dump = "h5dump -H " + s.dir.file("small.h5") + " > " + s.dir.file("dump.txt");
  REQUIRE(std::system(dump.c_str()) == 0);
  const std::string listing = test::read_text(s.dir.file("dump.txt"));
  CHECK(listing.find("DATASET \"points\"") != std::string::npos);
  CHECK(listing.find("H5T_IEEE_F64LE \"iteration_time_s\"") != std::string::npos);
}

TEST_CASE("a sweep run again resumes, and --resume refuses a journal of another sweep") {
  test::SmallSweep s;
  REQUIRE(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("a.h5"), "--quiet"}).code == 0);
  const auto again = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("a.h5"), "--quiet"});
  CHECK(again.out.find("12 from an earlier run") != std::string::npos);
  nlohmann::json changed = nlohmann::json::parse(test::read_text(s.spec));
  changed["axes"][0]["values"] = {2, 4};
  s.dir.write("sweep.json", changed.dump());
  const auto refused =
      test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("a.h5"), "--resume", "--quiet"});
  CHECK(refused.code == 2);
  CHECK(refused.err.find("zettasim: error: --resume: ") == 0);
  const auto fresh = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("a.h5"), "--quiet"});
  CHECK(fresh.code == 0);
  CHECK(fresh.out.find("0 from an earlier run") != std::string::npos);
}

TEST_CASE("a bad sweep file exits 2 with one line before any point runs") {
  test::SmallSweep s;
  nlohmann::json bad = nlohmann::json::parse(test::read_text(s.spec));
  bad["axes"][2]["values"] = {"ring", 3};
  s.dir.write("sweep.json", bad.dump());
  const auto r = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("bad.h5")});
  CHECK(r.code == 2);
  CHECK(r.err ==
        "zettasim: error: " + s.spec +
            ": /axes/2/values/1: expected a policy's name or the object of its options (the parameter is "
            "\"/policies/collective\"), got 3\n");
  CHECK_FALSE(std::filesystem::exists(batch::journal_dir(s.dir.file("bad.h5"))));
}

TEST_CASE("a sweep never replaces a file or folder it did not write, unless --force for a file") {
  test::SmallSweep s;
  const std::string precious = s.dir.write("precious.h5", "not a sweep's file\n");
  const auto refused = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", precious, "--quiet"});
  CHECK(refused.code == 2);
  CHECK(refused.err == "zettasim: error: --out: \"" + precious +
                           "\" exists and is not a sweep's results zettasim wrote: choose another path, or "
                           "--force to replace it\n");
  CHECK(test::read_text(precious) == "not a sweep's file\n");
  const std::string csv = s.dir.write("notes.csv", "my notes\n");
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("a.h5"), "--csv", csv, "--quiet"})
            .code == 2);
  CHECK(test::read_text(csv) == "my notes\n");
  std::filesystem::create_directories(s.dir.path() / "folder.h5");
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("folder.h5"), "--force", "--quiet"})
            .code == 2);
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", precious, "--force", "--quiet"}).code == 0);
  // a file the sweep wrote is replaced by the next run without --force
  CHECK(
      test::run_zettasim(s.dir, {"sweep", s.spec, "--out", precious, "--csv", s.dir.file("a.csv"), "--quiet"})
          .code == 0);
  CHECK(
      test::run_zettasim(s.dir, {"sweep", s.spec, "--out", precious, "--csv", s.dir.file("a.csv"), "--quiet"})
          .code == 0);
  // A journal whose start was killed before its marker was in place (the folder empty, or the marker's
  // temporary alone) is the sweep's own and resumed; one holding anything else is never replaced, even
  // when it looks like a journal (a plan.json, points/ and logs/ of the user's).
  s.dir.write("b.h5.journal/.zettasim-output.tmp-123", "a zettasim");
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("b.h5"), "--quiet"}).code == 0);
  std::filesystem::create_directories(batch::journal_dir(s.dir.file("e.h5")));
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("e.h5"), "--quiet"}).code == 0);
  s.dir.write("d.h5.journal/plan.json", "{\"my\": \"plan\"}\n");
  std::filesystem::create_directories(batch::journal_dir(s.dir.file("d.h5")) / "points");
  const auto lookalike = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("d.h5"), "--quiet"});
  CHECK(lookalike.code == 2);
  CHECK(test::read_text(batch::journal_dir(s.dir.file("d.h5")) / "plan.json") == "{\"my\": \"plan\"}\n");
  const auto other = batch::journal_dir(s.dir.file("c.h5"));
  std::filesystem::create_directories(other / "points");
  s.dir.write("c.h5.journal/points/mine.txt", "my file\n");
  const auto kept = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", s.dir.file("c.h5"), "--quiet"});
  CHECK(kept.code == 2);
  CHECK(kept.err.find("exists and is not a sweep's journal") != std::string::npos);
  CHECK(test::read_text(other / "points" / "mine.txt") == "my file\n");
}

TEST_CASE("a sweep over a plugin's policy runs every point with the plugin, as zettasim run does") {
  test::SmallSweep s;
  const std::string plugin = std::string(ZS_EXAMPLE_PLUGIN_DIR) + "/zs_example_collective.so";
  const nlohmann::json sweep = {{"kind", "sweep"},
                                {"name", "plugin"},
                                {"base", "scenario.json"},
                                {"axes",
                                 {{{"name", "collective"},
                                   {"pointer", "/policies/collective"},
                                   {"values", {"ring", "direct-all-reduce"}}}}}};
  batch::SweepOptions options = s.options("plugin.h5");
  options.spec = s.dir.write("plugin-sweep.json", sweep.dump());
  options.plugins = {plugin};
  const batch::SweepOutcome r = batch::run_sweep(core::DiskFileSource(), options, std::cerr);
  CHECK(r.ok == 2);
  test::ScenarioFiles point = s.scenario;
  point.scenario["policies"]["collective"] = "direct-all-reduce";
  const std::string path = s.dir.write("point.json", point.scenario.dump());
  REQUIRE(test::run_cli({"run", path, "--plugin", plugin, "--out", s.dir.file("run"), "--quiet"}).code == 0);
  CHECK(record_of(s.dir.file("plugin.h5"), 1).at("summary") ==
        nlohmann::json::parse(test::read_text(s.dir.path() / "run" / "summary.json")));
  // Without the plugin, that point is invalid: its policy is unknown.
  options.plugins.clear();
  options.out = s.dir.file("without.h5");
  CHECK(batch::run_sweep(core::DiskFileSource(), options, std::cerr).invalid == 1);
  CHECK(record_of(s.dir.file("without.h5"), 1)
            .at("error")
            .get<std::string>()
            .find("unknown collective policy \"direct-all-reduce\"") != std::string::npos);
}

TEST_CASE(
    "a sweep's outputs follow the output-file rule: never one path twice, never an input, refused first") {
  test::SmallSweep s;
  const std::string out = s.dir.file("r.h5");
  auto r = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", out, "--csv", out, "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.find("name one file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(batch::journal_dir(out)));  // refused before any point
  // A CSV that merely starts like a table is not the sweep's own.
  const std::string table = s.dir.write("table.csv", "point,x,y\n0,1,2\n");
  CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", out, "--csv", table, "--quiet"}).code == 2);
  CHECK(test::read_text(table) == "point,x,y\n0,1,2\n");
  // The sweep file and its base scenario are inputs: never replaced, not even with --force.
  for (const std::string& input : {s.spec, s.dir.file("scenario.json")}) {
    const std::string before = test::read_text(input);
    CHECK(test::run_zettasim(s.dir, {"sweep", s.spec, "--out", out, "--csv", input, "--force", "--quiet"})
              .code == 2);
    CHECK(test::read_text(input) == before);
  }
  // An sbatch option that names a file or the environment is refused before anything runs.
  r = test::run_zettasim(s.dir, {"sweep", s.spec, "--out", out, "--backend", "slurm", "--sbatch-option",
                                 "--output=" + s.dir.file("stolen.txt"), "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--sbatch-option") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(batch::journal_dir(out)));
  nlohmann::json spec = nlohmann::json::parse(test::read_text(s.spec));
  spec["slurm"] = {{"options", {"--mem=8G", "--export=LD_PRELOAD=/tmp/x.so"}}};
  r = test::run_zettasim(s.dir,
                         {"sweep", s.dir.write("exporting.json", spec.dump()), "--out", out, "--quiet"});
  CHECK(r.code == 2);
  CHECK(r.err.find("/slurm/options/1: expected an sbatch option") != std::string::npos);
}

TEST_CASE(
    "an axis named like a results column, or a second axis on one pointer, is refused before any point") {
  for (const auto& [name, pointer, expected] :
       {std::tuple{"status", "/policies/placement", "is a column of the results"},
        std::tuple{"mfu", "/policies/placement", "is a metric column of the results"},
        std::tuple{"placement", "/policies/collective", "already sets \"/policies/collective\""}}) {
    const std::string axis_name = name;  // a structured binding cannot be captured (clang 14)
    CAPTURE(axis_name);
    test::SmallSweep s;
    nlohmann::json spec = nlohmann::json::parse(test::read_text(s.spec));
    spec["axes"].push_back({{"name", name}, {"pointer", pointer}, {"values", {"linear"}}});
    if (std::string(name) == "placement") spec["axes"].back()["values"] = {"ring"};
    const auto r = test::run_zettasim(
        s.dir, {"sweep", s.dir.write("named.json", spec.dump()), "--out", s.dir.file("n.h5"), "--quiet"});
    CHECK(r.code == 2);
    CHECK(r.err.find("/axes/3/") != std::string::npos);
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(batch::journal_dir(s.dir.file("n.h5"))));
  }
}

TEST_CASE("run again, a sweep reruns the points whose files changed, and ends as a fresh sweep would") {
  test::SmallSweep s;
  nlohmann::json slow_gpu = s.scenario.gpu;
  s.dir.write("models/gpu2.json", slow_gpu.dump(2));
  const nlohmann::json spec = {{"kind", "sweep"},
                               {"name", "models"},
                               {"base", "scenario.json"},
                               {"axes",
                                {{{"name", "gpu"},
                                  {"pointer", "/machine/models/gpu"},
                                  {"values", {"models/gpu.json", "models/gpu2.json"}}}}}};
  const std::string file = s.dir.write("models-sweep.json", spec.dump());
  const auto iteration = [&](uint64_t point) {
    const auto record = batch::SweepJournal(batch::journal_dir(s.dir.file("a.h5"))).record(point);
    REQUIRE(record);
    return record->at("summary").at("iteration_time_s").get<double>();
  };
  REQUIRE(test::run_zettasim(s.dir, {"sweep", file, "--out", s.dir.file("a.h5"), "--quiet"}).code == 0);
  const double before0 = iteration(0), before1 = iteration(1);
  CHECK(before0 == before1);
  // A file only point 1 reads changes: the same command runs point 1 again, and point 0 not.
  slow_gpu["matrix_efficiency"] = 0.125;
  s.dir.write("models/gpu2.json", slow_gpu.dump(2));
  const auto point0 = batch::journal_dir(s.dir.file("a.h5")) / "points" / "0.json";
  const auto written0 = std::filesystem::last_write_time(point0);
  REQUIRE(test::run_zettasim(s.dir, {"sweep", file, "--out", s.dir.file("a.h5"), "--quiet"}).code == 0);
  CHECK(iteration(1) > before1);
  CHECK(iteration(0) == before0);
  CHECK(std::filesystem::last_write_time(point0) == written0);
  REQUIRE(test::run_zettasim(s.dir, {"sweep", file, "--out", s.dir.file("b.h5"), "--quiet"}).code == 0);
  CHECK(test::read_text(s.dir.file("a.h5")) == test::read_text(s.dir.file("b.h5")));
}
