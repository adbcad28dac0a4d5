// Gradient compression in a simulated iteration: the exposed data-parallel communication it saves is the
// closed form's, on NVLink it does not pay, and a plan refuses the combinations published systems lack.
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
#include "workload/memory_accounting.hpp"

using namespace zs;

namespace {

scenario::Scenario default_with(const test::TempDir& dir, const std::function<void(nlohmann::json&)>& edit) {
  return test::default_scenario_with(dir, "s.json", edit);
}

double exposed_dp(const engine::SimulationResult& r) {
  for (const auto& [name, t] : r.replay.critical().exposed_by_communicator)
    if (name == "dp") return t.value();
  return 0;
}

/// Bytes of the data-parallel gradient collectives of rank 0's program.
double gradient_bytes(const scenario::Scenario& s) {
  double bytes = 0;
  for (const auto& op : s.trace.roles.at(0).ops)
    if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body); c && op.phase == "gradient-sync")
      bytes += c->bytes.value();
  return bytes;
}

}  // namespace

TEST_CASE("bf16 compression shortens the exposed gradient all-reduce by the ring's time for half its bytes") {
  test::TempDir dir;
  auto plain = default_with(dir, [](nlohmann::json& w) { w["overlap_gradient_reduction"] = false; });
  auto bf16 = default_with(dir, [](nlohmann::json& w) {
    w["overlap_gradient_reduction"] = false;
    w["gradient_compression"] = {{"scheme", "bf16"}};
  });
  const double fp32_bytes = gradient_bytes(plain);
  CHECK(gradient_bytes(bf16) == test::approx(fp32_bytes / 2));
  // A ring all-reduce over 8 ranks moves 2 x 7/8 of its buffer over each NVLink at 450 GB/s x 0.818; the
  // per-step latencies are the same for both, so the exposed time shrinks by the bandwidth term of half the
  // bytes alone.
  const double link = plain.machine.link_models.at(0).effective_bandwidth().value();
  const double saved = 2 * 7 / 8.0 * (fp32_bytes / 2) / link;
  const auto r_plain = study::simulate_scenario(plain), r_bf16 = study::simulate_scenario(bf16);
  CHECK(exposed_dp(r_plain) - exposed_dp(r_bf16) == test::approx(saved).epsilon(1e-6));
}

TEST_CASE("on NVLink with overlapped reduction, a 16-bit cast costs more compute than it hides") {
  test::TempDir dir;
  const auto plain = study::simulate_scenario(default_with(dir, [](nlohmann::json&) {}));
  const auto bf16 = study::simulate_scenario(default_with(dir, [](nlohmann::json& w) {
    w["gradient_compression"] = {{"scheme", "bf16"}};
  }));
  CHECK(bf16.replay.iteration_time > plain.replay.iteration_time);
}

TEST_CASE("a plan refuses compression that does not compose, naming the key") {
  test::TempDir dir;
  const auto error = [&](const std::function<void(nlohmann::json&)>& edit) {
    return test::input_error_of([&] { default_with(dir, edit); });
  };
  CHECK(error([](nlohmann::json& w) {
          w["gradient_dtype"] = "bf16";
          w["gradient_compression"] = {{"scheme", "bf16"}};
        })
            .find("/workload/gradient_compression: scheme \"bf16\" casts fp32 gradients for the reduction, "
                  "but the gradients are already bf16") != std::string::npos);
  CHECK(error([](nlohmann::json& w) {
          w["zero_stage"] = 2;
          w["overlap_gradient_reduction"] = false;
          w["gradient_compression"] = {{"scheme", "top-k"}, {"fraction", 0.01}};
        }).find("reduces whole gradients") != std::string::npos);
  CHECK(error([](nlohmann::json& w) {
          w["data_parallel"] = 1;
          w["global_batch"] = 16;
          w["gradient_compression"] = {{"scheme", "int8"}, {"block", 256}};
        }).find("no data-parallel gradient reduction to compress") != std::string::npos);
}

TEST_CASE("top-k and PowerSGD keep an fp32 residual of every gradient in the memory check") {
  test::TempDir dir;
  const auto plain = default_with(dir, [](nlohmann::json&) {});
  const auto topk = default_with(dir, [](nlohmann::json& w) {
    w["gradient_compression"] = {{"scheme", "top-k"}, {"fraction", 0.01}};
  });
  REQUIRE(plain.megatron);
  const auto f0 = workload::stage_footprint(plain.megatron->model, plain.megatron->plan, 0);
  const auto f1 = workload::stage_footprint(topk.megatron->model, topk.megatron->plan, 0);
  const auto params = workload::stage_parameters(plain.megatron->model, plain.megatron->plan, 0);
  CHECK(f1.gradients.value() - f0.gradients.value() == test::approx(4.0 * (params.dense + params.experts)));
}
