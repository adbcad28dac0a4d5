// The trace a file stands for: a scenario's, a model's under a plan; a plan where none belongs refused.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "study/trace_input.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"

using namespace zs;

TEST_CASE("trace input: a model file under a plan gives dp x tp x pp ranks, a scenario its workload's") {
  core::DiskFileSource files;
  const study::TraceGeneration plan{"megatron",
                                    {{"data_parallel", 2},
                                     {"tensor_parallel", 2},
                                     {"pipeline_parallel", 2},
                                     {"micro_batch", 1},
                                     {"global_batch", 8}},
                                    "--parallel"};
  const auto model = study::read_trace_input(files, test::source_file("workloads/gpt3-1.3b.json"), &plan);
  CHECK(model.trace.mesh.size() == 8);
  CHECK_FALSE(model.imported.has_value());
  const auto scenario =
      study::read_trace_input(files, test::source_file("scenarios/hgx-3d-parallel.json"), nullptr);
  CHECK(scenario.trace.mesh.size() == 8);  // data 2 x pipeline 2 x tensor 2
}

TEST_CASE("trace input: a plan with a scenario, or a model without one, is an input error") {
  core::DiskFileSource files;
  const study::TraceGeneration plan{"megatron", {{"data_parallel", 2}}, "--parallel"};
  CHECK(test::input_error_of([&] {
          study::read_trace_input(files, test::source_file("scenarios/hgx-3d-parallel.json"), &plan);
        }) == "--parallel: a scenario carries its own plan; --parallel goes with a model file");
  CHECK(test::input_error_of([&] {
          study::read_trace_input(files, test::source_file("workloads/gpt3-1.3b.json"), nullptr);
        }) ==
        test::source_file("workloads/gpt3-1.3b.json") + ": /kind: expected a \"trace\" or a \"scenario\"");
}
