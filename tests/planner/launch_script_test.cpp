// launch.sbatch made from hostile values: bash runs it with nothing injected, each value arriving whole
// where it belongs; a value that has a Slurm grammar is refused outside it.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/input_error_of.hpp"
#include "support/temp_dir.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {

const std::string kScenario = ZS_SOURCE_DIR "/scenarios/planner/gpt3-1.3b-hgx-h100-4node.json";

scenario::Scenario shipped(const std::string& placement = "topology-aware") {
  core::DiskFileSource disk;
  nlohmann::json doc = nlohmann::json::parse(*disk.read(kScenario));
  doc["policies"]["placement"] = placement;
  core::OverlayFileSource files(disk, {{kScenario, doc.dump()}});
  return scenario::ScenarioLoader(files).load(kScenario);
}

/// Writes the plan's files into `dir` and runs launch.sbatch there with bash, with srun, torchrun and python3
/// as small scripts on PATH: srun runs its command, the other two print each argument as [ARG] on a line.
/// Returns what the script printed; a file "pwned" in `dir` afterwards means injected code ran.
std::string run_script(const test::TempDir& dir, const planner::JobPlan& plan) {
  for (const auto& [name, content] : planner::plan_files(plan, planner::plan_json(plan)))
    dir.write(name, content);
  const std::string skip_options = "while [ \"${1#--}\" != \"$1\" ]; do shift; done\n";
  dir.write("bin/srun", "#!/bin/bash\n" + skip_options + "exec \"$@\"\n");
  dir.write("bin/torchrun", "#!/bin/bash\n" + skip_options + "printf '[%s]\\n' \"$@\"\n");
  dir.write("bin/python3", "#!/bin/bash\nprintf '[%s]\\n' \"$@\"\n");
  for (const char* tool : {"srun", "torchrun", "python3"})
    fs::permissions(dir.path() / "bin" / tool, fs::perms::owner_all);
  const std::string command =
      "cd '" + dir.path().string() +
      "' && PATH=\"$PWD/bin:$PATH\" SLURM_PROCID=0 SLURM_NTASKS=" + std::to_string(plan.ranks.size()) +
      " SLURM_NODEID=0 CHECKPOINT_DIR=\"$PWD/ckpt dir\" bash launch.sbatch > out.txt 2>&1";
  CHECK(std::system(command.c_str()) == 0);
  return test::read_text(dir.path() / "out.txt");
}

constexpr const char* kHostileScript = "train it's $(touch pwned) `touch pwned`.py";

}  // namespace

TEST_CASE("hostile text in comments, the script path and NCCL values never runs, and arrives whole") {
  for (const std::string placement : {"topology-aware", "random"}) {  // torchrun per node, srun per rank
    CAPTURE(placement);
    planner::PlanOptions options;
    options.script = kHostileScript;
    planner::JobPlan plan = planner::make_job_plan(shipped(placement), options);
    plan.scenario = "s\ntouch pwned\n";  // names from files reach the header comment
    plan.unmapped = {"key\n$(touch pwned)"};
    plan.nccl_environment.push_back({"NCCL_DEBUG", "INFO'; touch pwned; '"});
    test::TempDir dir;
    const std::string script = planner::launch_script(plan);
    CHECK(std::system(("bash -n /dev/stdin <<'EOF_SCRIPT'\n" + script + "\nEOF_SCRIPT").c_str()) == 0);
    const std::string printed = run_script(dir, plan);
    CAPTURE(printed);
    CHECK_FALSE(fs::exists(dir.path() / "pwned"));
    CHECK(printed.find(std::string("[") + kHostileScript + "]\n") != std::string::npos);
    CHECK(printed.find("[--tensor-model-parallel-size]\n[8]\n") != std::string::npos);
    CHECK(printed.find("[--save]\n[" + dir.path().string() + "/ckpt dir]\n[--load]\n[" + dir.path().string() +
                       "/ckpt dir]\n") != std::string::npos);
  }
}

TEST_CASE("job name, partition, time and host names outside Slurm's grammars are refused by option") {
  const auto s = shipped();
  const auto refused = [&](auto change) {
    planner::PlanOptions o;
    change(o);
    return test::input_error_of([&] { planner::make_job_plan(s, o); });
  };
  CHECK(refused([](auto& o) {
          o.job_name = "x\n#SBATCH --wrap=id";
        }).rfind("--job-name: expected a job name", 0) == 0);
  CHECK(refused([](auto& o) {
          o.partition = "gpu;id";
        }).rfind("--partition: expected a Slurm partition", 0) == 0);
  CHECK(refused([](auto& o) { o.time_limit = "$(id)"; }).rfind("--time: expected a Slurm time limit", 0) ==
        0);
  planner::JobPlan plan = planner::make_job_plan(s, {});
  plan.hosts[0] = "gpu001$(id)";
  CHECK(test::input_error_of([&] { planner::launch_script(plan); }).find("expected a host name") !=
        std::string::npos);
}

TEST_CASE("a checkpointed plan saves and resumes through CHECKPOINT_DIR, and says so when it is not set") {
  const planner::JobPlan plan = planner::make_job_plan(shipped(), {});
  REQUIRE(plan.checkpoint);
  test::TempDir dir;
  for (const auto& [name, content] : planner::plan_files(plan, planner::plan_json(plan)))
    dir.write(name, content);
  const std::string command =
      "cd '" + dir.path().string() + "' && env -u CHECKPOINT_DIR bash launch.sbatch > out.txt 2>&1";
  CHECK(std::system(command.c_str()) != 0);
  CHECK(test::read_text(dir.path() / "out.txt").find("set CHECKPOINT_DIR to the folder") !=
        std::string::npos);
}
