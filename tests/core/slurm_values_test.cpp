// Slurm's grammars for what zettasim writes into job scripts and sbatch commands.
#include <doctest/doctest.h>

#include <string>

#include "core/input_error.hpp"
#include "core/slurm_values.hpp"

using namespace zs::core;

TEST_CASE("host names: RFC 1123 labels with Slurm's underscore, nothing the shell or a hostlist reads") {
  for (const char* good : {"gpu001", "node-1.cluster.example", "n_0", "a", "1node"})
    CHECK_FALSE(host_name_problem(good));
  for (const char* bad : {"", "-gpu", ".gpu", "gpu..1", "gpu.", "gpu 1", "gpu$(id)", "gpu;id", "gpu`id`",
                          "gpu'1", "gpu[1-2]", "gpu,1", "gpu\n1", "gpu/1"})
    CHECK(host_name_problem(bad));
  CHECK(host_name_problem(std::string(64, 'a')));  // one label over 63
  CHECK_FALSE(host_name_problem(std::string(63, 'a') + "." + std::string(63, 'b')));
  CHECK(host_name_problem(std::string(4 * 63 + 3, 'a')));
}

TEST_CASE("partitions, job names and accounts: one word with no quote, space or control character") {
  CHECK_FALSE(partition_problem("gpu"));
  CHECK_FALSE(partition_problem("gpu,debug-2"));
  for (const char* bad : {"", "gpu,", "gpu debug", "gpu\n#SBATCH --wrap=id", "gpu;id", "'gpu'"})
    CHECK(partition_problem(bad));
  CHECK_FALSE(job_name_problem("zettasim-plan"));
  CHECK_FALSE(job_name_problem("llama3-405b+ckpt:v2@site"));
  for (const char* bad : {"", "a b", "x\n#SBATCH --wrap=id", "x\"y", "x'y", "x$y", "x`y`"})
    CHECK(job_name_problem(bad));
  CHECK(job_name_problem(std::string(129, 'a')));
  CHECK_FALSE(account_problem("proj_42"));
  CHECK(account_problem("proj 42"));
}

TEST_CASE("time limits in sbatch's six formats and UNLIMITED, nothing else") {
  for (const char* good :
       {"10", "10:30", "2:00:00", "1-12", "1-12:30", "2-00:00:00", "0", "UNLIMITED", "infinite"})
    CHECK_FALSE(time_limit_problem(good));
  for (const char* bad : {"", ":", "1:", "1:2:3:4", "1-", "-1", "1-2-3", "1-1:2:3:4", "1h", "1:00;id", "1 0",
                          "1234567890", "1-00:00:00\n#SBATCH --wrap=id"})
    CHECK(time_limit_problem(bad));
}

TEST_CASE("sbatch options: only those that shape the allocation, never files, environment or the script") {
  for (const char* good : {"--mem=8G", "--qos=long", "--exclusive", "--constraint=h100&ib", "--gres=gpu:8"})
    CHECK_FALSE(sbatch_option_problem(good));
  for (const char* bad : {"--output=/home/u/.bashrc", "-o", "--export=LD_PRELOAD=/tmp/x.so", "--chdir=/",
                          "--wrap=id", "--error=x", "--uid=0", "--mem=8G\n#x", "mem=8G", "--",
                          "--get-user-env", "--open-mode=append", "--array=0-9"})
    CHECK(sbatch_option_problem(bad));
}

TEST_CASE("a value outside its grammar is an input error naming the option and what was expected") {
  try {
    require_slurm_value(time_limit_problem("soon"), "soon", "--time");
    FAIL("accepted");
  } catch (const InputError& e) {
    CHECK(e.file() == "--time");
    CHECK(std::string(e.what()).find("expected a Slurm time limit") != std::string::npos);
    CHECK(std::string(e.what()).find("got \"soon\"") != std::string::npos);
  }
}
