// A software stack's fixed costs in a simulated iteration and in a generated trace, against their sums.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/approx.hpp"
#include "support/default_scenario.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

/// A stack of 10 us per layer pass, 1 ms per MoE layer forward, 100 us per pipeline step and 1 ms per
/// iteration, written to the folder as stack.json.
void write_stack(const test::TempDir& dir) {
  nlohmann::json stack = {
      {"kind", "software-stack"}, {"name", "test-stack"},           {"description", "fixed costs for a test"},
      {"per_layer_pass", "10us"}, {"per_moe_layer_forward", "1ms"}, {"per_step", "100us"},
      {"per_iteration", "1ms"}};
  for (const char* key : {"per_layer_pass", "per_moe_layer_forward", "per_step", "per_iteration"})
    stack["sources"][key] = "test value";
  std::ofstream(dir.file("stack.json")) << stack.dump();
}

}  // namespace

TEST_CASE("a software stack's costs lengthen the default iteration by exactly their sum") {
  test::TempDir dir;
  write_stack(dir);
  auto without = [](nlohmann::json& w) { w["overlap_gradient_reduction"] = false; };
  auto with = [&](nlohmann::json& w) {
    without(w);
    w["software_stack"] = dir.file("stack.json");
  };
  const auto plain = study::simulate_scenario(test::default_scenario_with(dir, "s.json", without));
  const auto s = test::default_scenario_with(dir, "s.json", with);
  const auto stacked = study::simulate_scenario(s);
  // gpt3-1.3b, 24 layers on one stage, 128 / (8 x 2) = 8 micro-batches: per micro-batch a forward and a
  // backward step and 24 layer passes each way; no MoE layer. The iteration's own 1 ms runs beside the
  // gradient all-reduce (25 ms of fp32 gradients over NVLink), so it adds nothing.
  const double host = 8 * (2 * 100e-6 + 48 * 10e-6);
  CHECK(stacked.replay.iteration_time.value() - plain.replay.iteration_time.value() ==
        test::approx(host).epsilon(1e-9));
  CHECK(s.resolved["workload"]["software_stack"]["per_step"] == "100us");
}

TEST_CASE("a recomputed MoE layer pays its host synchronization again") {
  test::TempDir dir;
  write_stack(dir);
  core::DiskFileSource disk;
  // Mixtral 8x7B on two HGX servers (data 4 x tensor 2 x pipeline 2, expert parallel 4, full recomputation).
  nlohmann::json d = {{"kind", "scenario"},
                      {"name", "mixtral-stack"},
                      {"machine", test::source_file("topologies/hgx-h100-rails-16.machine.json")},
                      {"workload",
                       {{"generator", "megatron"},
                        {"model", test::source_file("workloads/mixtral-8x7b.json")},
                        {"software_stack", dir.file("stack.json")},
                        {"data_parallel", 4},
                        {"tensor_parallel", 2},
                        {"pipeline_parallel", 2},
                        {"expert_parallel", 4},
                        {"sequence_parallel", true},
                        {"recompute", "full"},
                        {"micro_batch", 1},
                        {"global_batch", 32},
                        {"zero_stage", 1}}},
                      {"policies", {{"placement", "linear"}, {"collective", "auto"}}}};
  std::ofstream(dir.file("m.json")) << d.dump();
  const auto s = scenario::ScenarioLoader(disk).load(dir.file("m.json"));
  double layers = 0, steps = 0, iteration = 0;
  for (const auto& op : s.trace.roles.at(0).ops) {
    const auto* c = std::get_if<workload::ComputeOp>(&op.body);
    if (c == nullptr || !c->duration) continue;
    if (op.name.ends_with("host/layer")) layers += c->duration->value();
    if (op.name.ends_with("host/step")) steps += c->duration->value();
    if (op.name == "optimizer/host") iteration += c->duration->value();
  }
  // 16 layers per stage, 32 / 4 = 8 micro-batches: per micro-batch each layer's forward, recomputed forward
  // and backward pay 10 us, both forwards 1 ms more (every layer is an MoE layer).
  CHECK(layers == test::approx(8 * 16 * (3 * 10e-6 + 2 * 1e-3)).epsilon(1e-12));
  CHECK(steps == test::approx(8 * 2 * 100e-6).epsilon(1e-12));
  CHECK(iteration == test::approx(1e-3).epsilon(1e-12));
}

TEST_CASE("a generator that charges no stack refuses one, naming the key") {
  test::TempDir dir;
  write_stack(dir);
  CHECK(test::input_error_of([&] {
          test::default_scenario_with(dir, "s.json", [&](nlohmann::json& w) {
            w["generator"] = "ideal-data-parallel";
            w.erase("overlap_gradient_reduction");
            w["software_stack"] = dir.file("stack.json");
          });
        }).find("/workload/software_stack: the ideal-data-parallel generator does not charge") !=
        std::string::npos);
}
