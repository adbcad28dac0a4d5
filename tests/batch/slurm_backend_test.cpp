// The Slurm backend against a real one-node Slurm on localhost (tests/slurm/local_slurm.sh, as root): the
// same results file as the local backend, and a job cancelled mid-sweep resumed to the same file.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "batch/sweep_journal.hpp"
#include "batch/sweep_support.hpp"

using namespace zs;

namespace {

/// A running local Slurm, stopped when the test ends however it ends.
class LocalSlurm {
 public:
  LocalSlurm() {
    script_ = std::string(ZS_SOURCE_DIR) + "/tests/slurm/local_slurm.sh";
    const std::string start =
        script_ + " start " + dir_.file("slurm") + " > " + dir_.file("start.log") + " 2>&1";
    started_ = std::system(start.c_str()) == 0;
    if (started_) ::setenv("SLURM_CONF", dir_.file("slurm/slurm.conf").c_str(), 1);
  }
  ~LocalSlurm() {
    const std::string stop = script_ + " stop " + dir_.file("slurm") + " > /dev/null 2>&1";
    if (std::system(stop.c_str()) != 0) std::fprintf(stderr, "local_slurm.sh stop failed\n");
    ::unsetenv("SLURM_CONF");
  }
  bool started() const { return started_; }
  std::string log() const { return test::read_text(dir_.file("start.log")); }

 private:
  test::TempDir dir_;
  std::string script_;
  bool started_ = false;
};

int zettasim(const std::vector<std::string>& args) {
  std::string command = ZS_ZETTASIM;
  for (const auto& a : args) command += " '" + a + "'";
  const int status = std::system((command + " > /dev/null").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// What `command` prints on stdout (empty when it cannot run).
std::string output_of(const std::string& command) {
  std::string text;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return text;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  ::pclose(pipe);
  return text;
}

}  // namespace

TEST_CASE(
    "a sweep on a real Slurm gives the same results file as on this machine, and resumes after scancel") {
  REQUIRE_MESSAGE(::geteuid() == 0, "the local Slurm runs as root (./dev test runs as root in CI)");
  LocalSlurm slurm;
  REQUIRE_MESSAGE(slurm.started(), slurm.log());
  test::SmallSweep s;
  REQUIRE(zettasim({"sweep", s.spec, "--out", s.dir.file("local.h5"), "--quiet"}) == 0);

  SUBCASE("the same file") {
    REQUIRE(zettasim({"sweep", s.spec, "--backend", "slurm", "--tasks", "3", "--out", s.dir.file("slurm.h5"),
                      "--quiet"}) == 0);
    CHECK(test::read_text(s.dir.file("slurm.h5")) == test::read_text(s.dir.file("local.h5")));
    CHECK(std::filesystem::exists(batch::journal_dir(s.dir.file("slurm.h5")) / "slurm" / "task-2.log"));
  }
  SUBCASE("the job cancelled mid-sweep, then the same command again") {
    // Submitted held, its first task released alone: that task's points run, and the job is cancelled
    // once it has ended and before the held tasks start, whatever the machine's speed.
    const std::string out = s.dir.file("cancelled.h5");
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::freopen("/dev/null", "w", stdout);
      ::execl(ZS_ZETTASIM, ZS_ZETTASIM, "sweep", s.spec.c_str(), "--backend", "slurm", "--tasks", "3",
              "--sbatch-option=--hold", "--out", out.c_str(), "--quiet", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    const auto slurm_dir = batch::journal_dir(out) / "slurm";
    for (int i = 0; i < 600 && !std::filesystem::exists(slurm_dir / "job_id"); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::string id;
    std::ifstream(slurm_dir / "job_id") >> id;
    REQUIRE_FALSE(id.empty());
    CHECK(std::system(("scontrol release " + id + "_0").c_str()) == 0);
    const auto points = nlohmann::json::parse(test::read_text((slurm_dir / "points.json").string()));
    REQUIRE(points.size() == 12);
    const auto first_task_done = [&] {
      for (size_t k = 0; k < points.size(); k += 3)
        if (!std::filesystem::exists(batch::journal_dir(out) / "points" /
                                     (std::to_string(points[k].get<uint64_t>()) + ".json")))
          return false;
      return output_of("squeue -h -t RUNNING -j " + id).empty();
    };
    bool done = false;
    for (int i = 0; i < 1200 && !(done = first_task_done()); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    REQUIRE_MESSAGE(done, "the released array task did not finish its 4 points within 2 minutes");
    CHECK(std::distance(std::filesystem::directory_iterator(batch::journal_dir(out) / "points"),
                        std::filesystem::directory_iterator{}) == 4);
    CHECK(std::system(("scancel " + id).c_str()) == 0);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    CHECK(WIFEXITED(status));
    // the cancelled job's points are recorded as failed, to run again
    CHECK(test::read_text(out) != test::read_text(s.dir.file("local.h5")));
    REQUIRE(zettasim({"sweep", s.spec, "--backend", "slurm", "--out", out, "--quiet"}) == 0);
    CHECK(test::read_text(out) == test::read_text(s.dir.file("local.h5")));
  }
}
