// Interleaving without divisibility in a simulated iteration: Megatron-Core's micro-batch groups run, and a
// group the pipeline cannot fill is refused naming the key.
#include <doctest/doctest.h>

#include <fstream>
#include <functional>
#include <string>

#include "core/file_source.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"
#include "support/source_file.hpp"
#include "support/temp_dir.hpp"

using namespace zs;

namespace {

/// The 1.3B GPT on one HGX H100 server, data 2 x pipeline 2 x tensor 2, interleaved with 2 chunks, with
/// `edit` applied to its workload section.
scenario::Scenario interleaved(const test::TempDir& dir, const std::function<void(nlohmann::json&)>& edit) {
  core::DiskFileSource disk;
  nlohmann::json d = {{"kind", "scenario"},
                      {"name", "interleaved-groups"},
                      {"machine", test::source_file("topologies/hgx-h100-8.machine.json")},
                      {"workload",
                       {{"generator", "megatron"},
                        {"model", test::source_file("workloads/gpt3-1.3b.json")},
                        {"data_parallel", 2},
                        {"pipeline_parallel", 2},
                        {"tensor_parallel", 2},
                        {"micro_batch", 1},
                        {"global_batch", 10},
                        {"schedule", "interleaved-1f1b"},
                        {"virtual_stages", 2},
                        {"microbatch_group", 3}}},
                      {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
  edit(d["workload"]);
  std::ofstream(dir.file("s.json")) << d.dump();
  return scenario::ScenarioLoader(disk).load(dir.file("s.json"));
}

}  // namespace

TEST_CASE("five micro-batches interleave over two stages in groups of three, as Megatron-Core runs them") {
  test::TempDir dir;
  const auto odd = study::simulate_scenario(interleaved(dir, [](nlohmann::json&) {}));
  const auto one_f_one_b = study::simulate_scenario(interleaved(dir, [](nlohmann::json& w) {
    w["schedule"] = "1f1b";
    w.erase("virtual_stages");
    w.erase("microbatch_group");
  }));
  // Interleaving shortens the pipeline's fill and drain: less bubble than 1F1B on the same micro-batches.
  CHECK(odd.replay.critical().pipeline_bubble < one_f_one_b.replay.critical().pipeline_bubble);
  CHECK(odd.replay.iteration_time < one_f_one_b.replay.iteration_time);
}

TEST_CASE("a micro-batch group the pipeline cannot fill is refused, naming the key") {
  test::TempDir dir;
  CHECK(
      test::input_error_of([&] { interleaved(dir, [](nlohmann::json& w) { w["microbatch_group"] = 4; }); })
          .find("/workload/microbatch_group: the interleaved schedule's last micro-batch group would hold 1 "
                "micro-batches") != std::string::npos);
  CHECK(test::input_error_of([&] {
          interleaved(dir, [](nlohmann::json& w) { w["microbatch_group"] = 6; });
        }).find("must lie in [pipeline_parallel 2, micro-batches per replica 5]") != std::string::npos);
  CHECK(test::input_error_of([&] {
          interleaved(dir, [](nlohmann::json& w) { w.erase("microbatch_group"); });
        }).find("/workload/global_batch: the interleaved schedule's last micro-batch group would hold 1") !=
        std::string::npos);
}
