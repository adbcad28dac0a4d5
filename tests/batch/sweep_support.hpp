// Test helper: a small sweep over the test scenario, and running `zettasim sweep` on it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "batch/sweep_runner.hpp"
#include "core/file_source.hpp"
#include "support/scenario_files.hpp"

namespace zs::test {

/// The test scenario with a sweep beside it over data parallelism, micro-batch (3 does not divide the
/// global batch: invalid) and collective policy: 2 x 3 x 2 = 12 points.
struct SmallSweep {
  TempDir dir;
  ScenarioFiles scenario;
  std::string spec;

  SmallSweep() {
    scenario.scenario["workload"]["global_batch"] = 16;
    scenario.topology["units"] = 8;
    scenario.write(dir);
    nlohmann::json sweep = {
        {"kind", "sweep"},
        {"name", "small"},
        {"base", "scenario.json"},
        {"axes",
         {{{"name", "dp"}, {"pointer", "/workload/data_parallel"}, {"values", {4, 8}}},
          {{"name", "micro_batch"}, {"pointer", "/workload/micro_batch"}, {"values", {1, 2, 3}}},
          {{"name", "collective"},
           {"pointer", "/policies/collective"},
           {"values", {"ring", "double-binary-tree"}}}}}};
    spec = dir.write("sweep.json", sweep.dump(2));
  }

  batch::SweepOptions options(const std::string& out, unsigned jobs = 2) const {
    batch::SweepOptions o;
    o.spec = spec;
    o.out = dir.file(out);
    o.jobs = jobs;
    o.quiet = true;
    o.command = {ZS_ZETTASIM, {"sweep-point"}};
    return o;
  }
};

}  // namespace zs::test
