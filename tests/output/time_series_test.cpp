// Time series: every link direction, pool and rank state averages over the iteration to what the run's
// result says; the grid, its refusal of too many samples, and collapsed runs without link series.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/file_source.hpp"
#include "output/time_series.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"

using namespace zs;

namespace {

struct Run {
  scenario::Scenario s;
  engine::SimulationResult r;
};

Run simulate(const std::string& file, std::optional<core::Fidelity> fidelity = std::nullopt) {
  core::DiskFileSource files;
  Run run{scenario::ScenarioLoader(files).load(test::source_file(file)), {}};
  if (fidelity) run.s.fidelity = *fidelity;
  run.r = study::simulate_scenario(run.s, {}, true);
  return run;
}

/// Sum of a row of samples times the step: s of full use.
double integral(const std::vector<double>& values, size_t row, const output::TimeSeries& t) {
  double sum = 0;
  for (size_t i = 0; i < t.samples; ++i) sum += values[row * t.samples + i];
  return sum * t.step;
}

}  // namespace

TEST_CASE("each link direction and pool averages to its bytes over bandwidth and iteration time") {
  const Run run = simulate("tests/output/data/offload-pp4-ocs.json");
  const auto t = output::time_series(run.s, run.r, 0.0007);  // a step that does not divide the iteration
  const double T = run.r.replay.iteration_time.value();
  CHECK(t.samples == size_t(std::ceil(T / 0.0007)));
  REQUIRE_FALSE(t.link_directions.empty());
  size_t carried = 0;
  for (double b : run.r.replay.link_bytes) carried += b > 0;
  CHECK(t.link_directions.size() == carried);
  for (size_t k = 0; k < t.link_directions.size(); ++k) {
    const uint32_t d = t.link_directions[k];
    const double expected =
        run.r.replay.link_bytes[d] / run.s.machine.link_bandwidth(topology::LinkId(d / 2)).value() / T;
    CAPTURE(t.link_names[k]);
    CHECK(integral(t.link_utilization, k, t) / T == doctest::Approx(expected).epsilon(1e-9));
  }
  double pool_max = 0;
  for (size_t k = 0; k < t.pool_names.size(); ++k)
    pool_max = std::max(pool_max, integral(t.pool_utilization, k, t) / T);
  CHECK(pool_max == doctest::Approx(run.r.utilization.pool_max).epsilon(1e-9));
  CHECK(t.optical_names == std::vector<std::string>{"ocs0", "ocs1"});
  // Tiers name what a link joins.
  bool unit_switch = false, optical = false, pool = false;
  for (const auto& tier : t.link_tiers) {
    unit_switch |= tier.rfind("unit - switch (", 0) == 0;
    optical |= tier.rfind("optical circuit (", 0) == 0;
    pool |= tier.rfind("memory pool (", 0) == 0;
  }
  CHECK(unit_switch);
  CHECK(optical);
  CHECK(pool);
}

TEST_CASE("each rank's states fill its samples and add up to its breakdown, per communicator too") {
  const Run run = simulate("tests/output/data/offload-pp4-ocs.json");
  const auto t = output::time_series(run.s, run.r, 0.001);
  REQUIRE(t.ranks.size() == run.r.replay.ranks.size());
  const size_t states = t.states.size();
  CHECK(t.states == std::vector<std::string>{"compute", "exposed communication", "pipeline bubble",
                                             "memory stall", "collective wait", "idle"});
  for (size_t slot = 0; slot < t.ranks.size(); ++slot) {
    const auto& b = run.r.replay.ranks[slot];
    const double expected[] = {b.compute.value(), b.exposed_comm.value(), b.pipeline_bubble.value(),
                               b.memory_stall.value(), b.collective_wait.value(), b.idle.value()};
    for (size_t k = 0; k < states; ++k)
      CHECK(integral(t.state_share, slot * states + k, t) == doctest::Approx(expected[k]).epsilon(1e-9));
    for (size_t i = 0; i + 1 < t.samples; ++i) {  // every sample but the last lies inside the iteration
      double sum = 0;
      for (size_t k = 0; k < states; ++k) sum += t.state_share[(slot * states + k) * t.samples + i];
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-9));
    }
    for (const auto& [name, seconds] : b.exposed_by_communicator) {
      const auto c =
          size_t(std::find(t.communicators.begin(), t.communicators.end(), name) - t.communicators.begin());
      REQUIRE(c < t.communicators.size());
      CHECK(integral(t.exposed_share, c * t.ranks.size() + slot, t) ==
            doctest::Approx(seconds.value()).epsilon(1e-9));
    }
  }
}

TEST_CASE("a collapsed run's series has its representatives' states and no link series") {
  const Run run = simulate("scenarios/hgx-3d-parallel.json", core::Fidelity::kCollapsed);
  const auto t = output::time_series(run.s, run.r, 0.001);
  CHECK(t.link_directions.empty());
  CHECK(t.ranks.size() == run.r.replay.ranks.size());
  CHECK(t.stands_for.at(0) > 1);
}

TEST_CASE("a step that makes more than a million samples is refused with one line") {
  const Run run = simulate("tests/output/data/offload-pp4-ocs.json");
  CHECK(test::input_error_of([&] {
          output::time_series(run.s, run.r, 1e-12);
        }).rfind("--timeseries-step: a step of 1ps makes more than 1000000 samples of the ", 0) == 0);
}
