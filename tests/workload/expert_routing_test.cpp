// Expert routing imbalance: Zipf hot experts match their expectation; all-to-all sizes add up.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "support/approx.hpp"
#include "workload/expert_routing.hpp"

using namespace zs;
using Model = workload::ExpertRoutingModel;

namespace {
/// P(expert 0 is among k = 2 experts drawn without replacement): p0 + sum_j p_j p0 / (1 - p_j).
double chosen_probability_top2(const std::vector<double>& p) {
  double q = p[0];
  for (size_t j = 1; j < p.size(); ++j) q += p[j] * p[0] / (1 - p[j]);
  return q;
}
}  // namespace

TEST_CASE("Zipf routing: the hottest expert's tokens match the expectation within sampling error") {
  Model zipf;
  zipf.distribution = Model::Distribution::kZipf;
  zipf.zipf_exponent = 1.2;
  const uint64_t T = 200000;
  const uint32_t E = 64;
  const auto p = zipf.weights(E);
  CHECK(std::accumulate(p.begin(), p.end(), 0.0) == zs::test::approx(1.0));
  CHECK(p[0] / p[1] == zs::test::approx(std::pow(2.0, 1.2)));
  for (uint32_t k : {1u, 2u}) {
    CAPTURE(k);
    auto a = workload::route_tokens(T, E, k, zipf, 7);
    const double q = k == 1 ? p[0] : chosen_probability_top2(p);
    const double mean = T * q, sigma = std::sqrt(T * q * (1 - q));
    CHECK(std::fabs(double(a.tokens_per_expert[0]) - mean) < 4 * sigma);
    CHECK(std::accumulate(a.tokens_per_expert.begin(), a.tokens_per_expert.end(), uint64_t(0)) == T * k);
    CHECK(*std::max_element(a.tokens_per_expert.begin(), a.tokens_per_expert.end()) ==
          a.tokens_per_expert[0]);
  }
}

TEST_CASE("uniform routing spreads tokens evenly, and the same seed gives the same routing") {
  Model uniform;
  auto a = workload::route_tokens(64000, 32, 1, uniform, 1);
  const double mean = 2000, sigma = std::sqrt(64000 * (1.0 / 32) * (31.0 / 32));
  for (auto n : a.tokens_per_expert) CHECK(std::fabs(double(n) - mean) < 5 * sigma);
  CHECK(workload::route_tokens(64000, 32, 1, uniform, 1).tokens_per_expert == a.tokens_per_expert);
  CHECK(workload::route_tokens(64000, 32, 1, uniform, 2).tokens_per_expert != a.tokens_per_expert);
}

TEST_CASE("capacity: tokens over it are dropped or rerouted, and all-to-all sizes sum to the tokens routed") {
  Model m;
  m.distribution = Model::Distribution::kZipf;
  m.zipf_exponent = 1.0;
  m.capacity_factor = 1.25;
  const uint64_t T = 8192;
  const uint32_t E = 16, k = 2;
  const auto capacity = uint64_t(std::ceil(1.25 * T * k / E));
  auto dropped = workload::route_tokens(T, E, k, m, 3);
  CHECK(dropped.dropped > 0);  // Zipf(1) over 16 experts overloads the first ones
  for (auto n : dropped.tokens_per_expert) CHECK(n <= capacity);
  CHECK(std::accumulate(dropped.tokens_per_expert.begin(), dropped.tokens_per_expert.end(), uint64_t(0)) +
            dropped.dropped ==
        T * k);
  m.reroute_overflow = true;
  auto rerouted = workload::route_tokens(T, E, k, m, 3);
  CHECK(rerouted.dropped == 0);
  CHECK(rerouted.rerouted == dropped.dropped);
  CHECK(std::accumulate(rerouted.tokens_per_expert.begin(), rerouted.tokens_per_expert.end(), uint64_t(0)) ==
        T * k);
  for (auto n : rerouted.tokens_per_expert) CHECK(n <= capacity);

  // Dispatch over 4 expert-parallel ranks (4 experts each): every row sums to what its source kept.
  m.reroute_overflow = false;
  auto matrix = workload::dispatch_matrix(4, T, E, k, m, 11);
  for (uint32_t s = 0; s < 4; ++s) {
    auto a = workload::route_tokens(T, E, k, m, 11 * 0x100000001b3ull + s);
    CHECK(std::accumulate(matrix[s].begin(), matrix[s].end(), uint64_t(0)) == T * k - a.dropped);
    CHECK(matrix[s][0] > matrix[s][3]);  // the rank hosting the hot experts receives the most
  }
}

TEST_CASE("impossible routing plans are errors saying which constraint failed") {
  Model m;
  CHECK_THROWS_WITH(workload::dispatch_matrix(3, 10, 16, 2, m, 1),
                    "experts (16) are not divisible by the 3 expert-parallel ranks");
  CHECK_THROWS_WITH(workload::route_tokens(10, 4, 5, m, 1), "top_k must be in [1, experts]");
  m.distribution = Model::Distribution::kHistogram;
  m.histogram = {1, 2, 3};
  CHECK_THROWS_WITH(workload::route_tokens(10, 4, 1, m, 1),
                    "the routing histogram has 3 weights for 4 experts");
}

TEST_CASE("a histogram whose few experts hold nearly all the weight still routes every token, without end") {
  Model skewed;
  skewed.distribution = Model::Distribution::kHistogram;
  skewed.histogram.assign(8, 1.0);
  skewed.histogram[7] = 1e17;  // top-2 without replacement: the second choice is almost never expert 7 again
  const auto a = workload::route_tokens(1000, 8, 2, skewed, 3);
  CHECK(a.tokens_per_expert[7] == 1000);
  uint64_t others = 0;
  for (uint32_t e = 0; e < 7; ++e) others += a.tokens_per_expert[e];
  CHECK(others == 1000);  // each token's second expert is one of the other seven
  CHECK(workload::route_tokens(1000, 8, 2, skewed, 3).tokens_per_expert == a.tokens_per_expert);
}
