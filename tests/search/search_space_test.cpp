// The plan space of a search: its defaults around a scenario, a search section's pins, lists and bounds,
// its refusals, and how many plans the enumeration visits (counted by hand for the default scenario).
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "scenario/search_section.hpp"
#include "support/default_scenario.hpp"
#include "support/input_error_of.hpp"

using namespace zs;

namespace {

scenario::Scenario default_scenario(const test::TempDir& dir) {
  return test::default_scenario_with(dir, "s.json", [](nlohmann::json&) {});
}

/// The space a "search" section `section` makes around the default scenario.
search::SearchSpace space_with(const nlohmann::json& section) {
  test::TempDir dir;
  const scenario::Scenario s = default_scenario(dir);
  core::ParamReader reader(search::SearchSpace::params(), core::JsonObject(section, "s.json", "/search"));
  search::SearchSpace space = scenario::search_space(s, policy::PolicyCatalog{}, &reader);
  reader.finish();
  return space;
}

}  // namespace

TEST_CASE("the default space of the default scenario: 8 units, the 1.3B GPT's 16 heads, 24 layers") {
  test::TempDir dir;
  const scenario::Scenario s = default_scenario(dir);
  const search::SearchSpace space = scenario::search_space(s, policy::PolicyCatalog{}, nullptr);
  CHECK(space.tensor_parallel == std::vector<uint32_t>{1, 2, 4, 8});
  CHECK(space.pipeline_parallel == std::vector<uint32_t>{1, 2, 4, 8});
  CHECK(space.context_parallel == std::vector<uint32_t>{1, 2, 4, 8});
  CHECK(space.expert_parallel == std::vector<uint32_t>{1});  // a dense model
  CHECK(space.expert_tensor_parallel == std::vector<uint32_t>{1});
  CHECK(space.virtual_stages.size() == 16);  // 1, and 2 to 16 for interleaving
  CHECK(space.micro_batch == std::vector<uint32_t>{1, 2, 4, 8});
  CHECK(space.zero_stage == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(space.global_batch == std::vector<uint32_t>{128});
  CHECK(space.collective == std::vector<std::string>{"ring"});
  CHECK(space.placement == std::vector<std::string>{"linear"});
  CHECK(space.overlap_gradient_reduction == std::vector<bool>{true});  // the scenario's
  // 4 tp x 4 cp x 4 pp x 2 schedules x 16 chunk counts x 4 micro-batches x 4 ZeRO stages x 3 recomputations
  CHECK(space.combinations() == 98304);
  // By hand: the (tp, cp, pp) whose product divides 8 are the 20 ways to share at most three factors of
  // two; dp is what is left. 1f1b takes one chunk count; interleaving needs pp > 1 and pp x v dividing the
  // 24 layers: v in {2, 3, 4, 6, 12} at pp 2, {2, 3, 6} at pp 4, {3} at pp 8. Per (tp, cp) pair: pp 1 in
  // 10 triples (1 schedule each), pp 2 in 6 (1 + 5), pp 4 in 3 (1 + 3), pp 8 in 1 (1 + 1): 60. Every
  // micro-batch divides 128 / dp (dp <= 8). 60 x 4 micro-batches x 4 ZeRO stages x 3 recomputations.
  uint64_t visited = 0;
  const uint64_t returned = space.enumerate([&](const search::PlanChoice& c, uint64_t) {
    CHECK(uint64_t(c.tensor_parallel) * c.context_parallel * c.pipeline_parallel * c.data_parallel == 8);
    CHECK(!c.sequence_parallel == (c.tensor_parallel == 1));  // with tensor parallelism only
    ++visited;
    return true;
  });
  CHECK(visited == 2880);
  CHECK(returned == 2880);
}

TEST_CASE("a search section pins, lists and bounds the keys, and stops the enumeration early on request") {
  const auto space = space_with({{"tensor_parallel", 2},
                                 {"pipeline_parallel", {1, 4, 4}},
                                 {"context_parallel", {{"max", 2}}},
                                 {"recompute", "full"},
                                 {"schedule", {"1f1b"}},
                                 {"zero_stage", {{"min", 1}, {"max", 2}}},
                                 {"overlap_gradient_reduction", {false, true}}});
  CHECK(space.tensor_parallel == std::vector<uint32_t>{2});
  CHECK(space.pipeline_parallel == std::vector<uint32_t>{1, 4});  // sorted, once each
  CHECK(space.context_parallel == std::vector<uint32_t>{1, 2});
  CHECK(space.zero_stage == std::vector<uint32_t>{1, 2});
  CHECK(space.recompute == std::vector<workload::Recompute>{workload::Recompute::kFull});
  CHECK(space.overlap_gradient_reduction == std::vector<bool>{false, true});
  uint64_t seen = 0;
  CHECK(space.enumerate([&](const search::PlanChoice&, uint64_t) { return ++seen < 3; }) == 3);
}

TEST_CASE("a search section's mistakes are input errors at their keys") {
  auto error = [](const nlohmann::json& section) {
    return test::input_error_of([&] { space_with(section); });
  };
  CHECK(error({{"tensor_parallel", 0}}) ==
        "s.json: /search/tensor_parallel: the value must be a whole number in [1, 1048576], got 0");
  CHECK(error({{"pipeline_parallel", {{"min", 9}}}}) ==
        "s.json: /search/pipeline_parallel: no value in [9, 4294967295] divides what it must (the units, "
        "heads, layers, sequence or experts)");
  CHECK(error({{"micro_batch", {{"least", 1}}}}) ==
        "s.json: /search/micro_batch: unknown bound \"least\" (known: min, max)");
  CHECK(error({{"recompute", {"some"}}}) ==
        "s.json: /search/recompute: unknown recomputation \"some\" (known: none, selective, full)");
  CHECK(error({{"collective", "fastest"}})
            .starts_with("s.json: /search/collective: unknown collective policy \"fastest\" (known: ring,"));
  CHECK(error({{"sequence_parallel", "yes"}}) ==
        "s.json: /search/sequence_parallel: expected true, false, or a list of them");
  CHECK(error({{"tensor_paralel", 2}}).find("tensor_paralel") != std::string::npos);
}
