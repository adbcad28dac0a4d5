// Tier 1 over the default scenario's space: every candidate accounted for, the ranking by the objective,
// the Pareto front non-dominated, the same result on every run, and the cost objective's need of costs.
#include <doctest/doctest.h>

#include "scenario/search_section.hpp"
#include "search/plan_search.hpp"
#include "support/default_scenario.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

struct DefaultSearch {
  test::TempDir dir;
  scenario::Scenario s;
  core::DiskFileSource files;
  policy::PolicyCatalog policies;
  search::SearchInputs in;
  search::SearchSpace space;

  explicit DefaultSearch(bool with_cost = true)
      : s(test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {})) {
    if (!with_cost) s.cost.reset();
    in.model = &s.megatron->model;
    for (const auto& [k, v] : s.resolved["workload"].items())
      if (workload::ParallelPlan::params().find(k) != nullptr) in.base_plan[k] = v;
    in.file = s.file;
    in.files = &files;
    in.machine = &s.machine;
    in.ranks = 8;
    in.cost = s.cost ? &*s.cost : nullptr;
    in.policies = &policies;
    in.collective_options = s.collective_options;
    space = scenario::search_space(s, policies, nullptr);
  }
  search::Tier1Result run(search::Objective objective, size_t keep = 64) {
    return search::run_tier1(in, space, objective, keep, 0, nullptr);
  }
};

}  // namespace

TEST_CASE("tier 1 accounts for every candidate and ranks the kept ones by the objective") {
  DefaultSearch d;
  const search::Tier1Result r = d.run(search::Objective::kTime, 32);
  CHECK(r.candidates == 2880);  // search_space_test counts them by hand
  CHECK(r.refused + r.too_large + r.estimated == r.candidates);
  CHECK(r.estimated > 0);
  CHECK(r.refused > 0);  // e.g. ZeRO-2 and 3 with the scenario's overlapped gradient reduction
  CHECK(r.refused_by.count("overlap_gradient_reduction") == 1);
  REQUIRE(r.ranked.size() == 32);
  for (size_t i = 1; i < r.ranked.size(); ++i) {
    CHECK(r.ranked[i - 1].objective <= r.ranked[i].objective);
    CHECK(r.ranked[i].objective == r.ranked[i].estimate.iteration_s);
  }
  // The same candidates and figures on a second run.
  const search::Tier1Result again = d.run(search::Objective::kTime, 32);
  for (size_t i = 0; i < r.ranked.size(); ++i) {
    CHECK(again.ranked[i].index == r.ranked[i].index);
    CHECK(again.ranked[i].estimate.iteration_s == r.ranked[i].estimate.iteration_s);
  }
}

TEST_CASE("the Pareto front of time against cost: no member dominated by any kept candidate") {
  DefaultSearch d;
  const search::Tier1Result r = d.run(search::Objective::kPareto, 4096);
  REQUIRE(!r.pareto.empty());
  std::vector<const search::Candidate*> front;
  for (const auto& c : r.ranked)
    if (std::find(r.pareto.begin(), r.pareto.end(), c.index) != r.pareto.end()) front.push_back(&c);
  CHECK(front.size() == r.pareto.size());
  for (const auto* f : front)
    for (const auto& c : r.ranked) {
      const bool no_worse =
          c.estimate.iteration_s <= f->estimate.iteration_s &&
          *c.estimate.cost_per_million_tokens_usd <= *f->estimate.cost_per_million_tokens_usd;
      const bool better = c.estimate.iteration_s < f->estimate.iteration_s ||
                          *c.estimate.cost_per_million_tokens_usd < *f->estimate.cost_per_million_tokens_usd;
      CHECK(!(no_worse && better));
    }
  // The front comes first, by time.
  for (size_t i = 0; i < r.pareto.size(); ++i) CHECK(r.ranked[i].index == r.pareto[i]);
}

TEST_CASE("the cost objective needs the scenario's cost section") {
  DefaultSearch d(false);
  CHECK(test::input_error_of([&] { d.run(search::Objective::kCost); }) ==
        "--objective: the cost objective needs the scenario's \"cost\" section (" + d.s.file + " has none)");
  CHECK(d.run(search::Objective::kEnergy).ranked.front().objective > 0);
}

TEST_CASE("a choice made of the scenario's own plan gives that plan back") {
  DefaultSearch d;
  const auto choice = search::choice_of(d.s.megatron->plan, 0);
  CHECK(search::plan_of(d.in, choice).describe() == d.s.megatron->plan.describe());
}

TEST_CASE("a time budget stops tier 1 and says so") {
  DefaultSearch d;
  const search::Tier1Result r = search::run_tier1(d.in, d.space, search::Objective::kTime, 16, 1e-9, nullptr);
  CHECK(r.budget_reached);
  CHECK(r.candidates == 1);  // the budget is looked at every 256 candidates, the first included
  CHECK(r.estimated == 0);
  CHECK(!d.run(search::Objective::kTime).budget_reached);
}
