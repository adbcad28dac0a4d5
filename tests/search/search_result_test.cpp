// Spearman's rank correlation, and the finalists' ranking: estimate errors and the best by the objective.
#include <doctest/doctest.h>

#include "search/search_result.hpp"
#include "support/approx.hpp"

using namespace zs;

TEST_CASE("Spearman's rank correlation: 1 for the same order, -1 reversed, ties at their mean rank") {
  CHECK(*search::spearman({1, 2, 3, 4}, {10, 20, 30, 40}) == test::approx(1.0));
  CHECK(*search::spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == test::approx(-1.0));
  // Ranks (1, 2, 3, 4) against (1, 2.5, 2.5, 4): Pearson of the ranks = 4.5 / sqrt(5 x 4.5).
  CHECK(*search::spearman({1, 2, 3, 4}, {1, 2, 2, 4}) == test::approx(4.5 / std::sqrt(5 * 4.5)));
  CHECK(!search::spearman({1, 2}, {1, 2}));
  CHECK(!search::spearman({1, 1, 1}, {1, 2, 3}));  // no spread: undefined
}

TEST_CASE("the finalists' errors, the best by the simulated objective, and the scenario's plan as a rival") {
  search::SearchResult r;
  auto finalist = [](bool reference, double estimate, double simulated) {
    search::Finalist f;
    f.reference = reference;
    f.estimated = true;
    f.candidate.estimate.iteration_s = estimate;
    f.ran = true;
    f.summary = {{"iteration_time_s", simulated}, {"energy_per_token_j", simulated / 10}};
    return f;
  };
  r.finalists = {finalist(true, 10, 8), finalist(false, 4, 5), finalist(false, 5, 4), finalist(false, 6, 6)};
  search::rank_finalists(r);
  CHECK(*r.finalists[1].estimate_error == test::approx(-0.2));
  CHECK(*r.finalists[0].estimate_error == test::approx(0.25));
  REQUIRE(r.best);
  CHECK(*r.best == 2);
  CHECK(*r.rank_correlation == test::approx(0.5));   // (1, 2, 3) against (2, 1, 3)
  r.finalists[0].summary["iteration_time_s"] = 3.0;  // the scenario's own plan beats every finalist
  r.finalists[0].summary["energy_per_token_j"] = 0.3;
  search::rank_finalists(r);
  CHECK(*r.best == 0);
  r.objective = search::Objective::kEnergy;
  r.finalists[0].summary["energy_per_token_j"] = 1.0;
  search::rank_finalists(r);
  CHECK(*r.best == 2);  // 0.4 J per token
}
