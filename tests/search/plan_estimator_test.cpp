// Tier 1's estimate: its parts add up to the iteration, its optimizer step is the unit model's Adam, it
// agrees with the engine on the default scenario, and a plan over the units' HBM is told apart.
#include <doctest/doctest.h>

#include "search/plan_estimator.hpp"
#include "search/plan_search.hpp"
#include "study/scenario_simulation.hpp"
#include "support/approx.hpp"
#include "support/default_scenario.hpp"
#include "workload/adam_step.hpp"
#include "workload/memory_accounting.hpp"

using namespace zs;

namespace {

/// Tier 1's estimate of a scenario's own plan.
search::PlanEstimate estimate_of(const scenario::Scenario& s) {
  const policy::PolicyCatalog policies;
  const auto ring =
      policy::make_collective_policy(policies.collective, s.collective_policy, s.collective_options);
  const std::vector<std::unique_ptr<policy::CollectivePolicy>> none;
  search::CollectiveEstimator collectives(s.machine, *ring, none, s.collective_options.protocol);
  search::PlanEstimator estimator(s.megatron->model, s.machine, s.trace.mesh.size(), {},
                                  s.cost ? &*s.cost : nullptr);
  return estimator.estimate(s.megatron->plan, collectives, 0);
}

}  // namespace

TEST_CASE("without a pipeline, the iteration is the micro-batches' passes, the exposed reduction and Adam") {
  test::TempDir dir;
  const auto s = test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  const search::PlanEstimate e = estimate_of(s);
  const double micro_batches = 128.0 / (8 * 2);
  CHECK(e.bubble_s == 0);
  CHECK(e.pipeline_exchange_s == 0);
  CHECK(e.iteration_s == test::approx(micro_batches * e.stage_s + e.data_parallel_s + e.optimizer_s));
  // Adam over every parameter of the rank (ZeRO 0), fp32 gradients and moments: 30 B per parameter
  // through HBM, one kernel.
  const double params = workload::stage_parameters(s.megatron->model, s.megatron->plan, 0).dense;
  const auto& gpu = s.machine.unit_model(s.machine.topology.units().front());
  const double adam = gpu.kernel_launch_overhead().value() +
                      30.0 * params / (gpu.hbm_bandwidth().value() * gpu.hbm_efficiency());
  CHECK(e.optimizer_s == test::approx(adam));
  CHECK(e.tokens_per_s == test::approx(128.0 * 2048 / e.iteration_s));
  CHECK(e.energy_per_token_j == test::approx(e.energy_j / (128.0 * 2048)));
}

TEST_CASE("tier 1 estimates the default scenario's iteration within 5% of the engine") {
  test::TempDir dir;
  const auto s = test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
  const double simulated = study::simulate_scenario(s).replay.iteration_time.value();
  const double estimated = estimate_of(s).iteration_s;
  CHECK(estimated == doctest::Approx(simulated).epsilon(0.05));  // measured: -2.1%
}

TEST_CASE("a pipeline adds its bubble and its exchanges, and a plan over the units' HBM is found") {
  test::TempDir dir;
  const auto s = test::default_scenario_with(dir, "s.json", [](nlohmann::json& w) {
    w["data_parallel"] = 4;
    w["pipeline_parallel"] = 2;
  });
  const search::PlanEstimate e = estimate_of(s);
  CHECK(e.bubble_s > 0);
  CHECK(e.bubble_s < e.stage_s);  // one stage of two
  CHECK(e.pipeline_exchange_s > 0);
  const double micro_batches = 128.0 / (4 * 2);
  CHECK(e.iteration_s == test::approx(micro_batches * e.stage_s + e.bubble_s + e.pipeline_exchange_s +
                                      e.data_parallel_s + e.optimizer_s));
  search::PlanEstimator estimator(s.megatron->model, s.machine, 8, {}, nullptr);
  workload::ParallelPlan big = s.megatron->plan;
  big.micro_batch = 32;  // 32 sequences of activations in flight per micro-batch: over 80 GB
  CHECK(estimator.memory(big) > estimator.capacity());
  CHECK(estimator.memory(s.megatron->plan) < estimator.capacity());
  CHECK(estimator.capacity() ==
        s.machine.unit_model(s.machine.topology.units().front()).hbm_capacity().value());
}
