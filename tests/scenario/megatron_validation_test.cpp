// The Megatron-LM SC'21 validation rows, the scenarios they compose, the FLOP count and the trend test.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "scenario/megatron_validation.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/approx.hpp"

using namespace zs;
using scenario::ValidationRow;
using scenario::ValidationSpec;

namespace {
const std::string kSpec = std::string(ZS_SOURCE_DIR) + "/scenarios/validation/megatron-sc21.json";

ValidationSpec shipped() {
  core::DiskFileSource disk;
  return ValidationSpec::load(disk, kSpec);
}

const ValidationRow& find(const ValidationSpec& s, const std::string& name) {
  for (const auto& r : s.rows)
    if (r.name() == name) return r;
  FAIL("no row " << name);
  return s.rows.front();
}

/// The shipped spec with the CSV replaced by `csv`.
ValidationSpec with_rows(const std::string& csv) {
  core::DiskFileSource disk;
  const std::string rows = std::string(ZS_SOURCE_DIR) + "/scenarios/validation/megatron-sc21.csv";
  core::OverlayFileSource overlay(disk, {{rows, csv}});
  return ValidationSpec::load(overlay, kSpec);
}

const char* kHeader =
    "table,params_billion,scheme,layers,hidden,heads,tensor_parallel,pipeline_parallel,virtual_stages,gpus,"
    "global_batch,micro_batch,published_tflops_per_gpu\n";
}  // namespace

TEST_CASE("the shipped rows are the paper's: 10 of Table 1, 12 of Table 2, with their run configuration") {
  const auto s = shipped();
  REQUIRE(s.rows.size() == 22);
  size_t t1 = 0;
  for (const auto& r : s.rows) t1 += r.table == 1;
  CHECK(t1 == 10);
  const auto& trillion = find(s, "table1-1008B-ptd-p-3072gpu");
  CHECK(trillion.layers == 128);
  CHECK(trillion.hidden == 25600);
  CHECK(trillion.pipeline_parallel == 64);
  CHECK(trillion.published_tflops == 163);
  // run_table_1.sh: 76B with 5 layers per virtual stage over pp 4 (15 layers a stage) -> 3 chunks.
  CHECK(find(s, "table1-76.1B-ptd-p-1024gpu").virtual_stages == 3);
  CHECK(find(s, "table2-174.6B-zero-3-1536gpu").published_tflops == 44);
  CHECK(s.units_per_server == 8);
  CHECK(s.row_tolerance == doctest::Approx(0.15));
  CHECK(s.mean_tolerance == doctest::Approx(0.07));
}

TEST_CASE("Megatron-LM's FLOP count, by hand for the 1T row") {
  // 1T row: 96 B s l h^2 (1 + s/6h + V/16lh) by hand.
  const auto s = shipped();
  const auto& r = find(s, "table1-1008B-ptd-p-3072gpu");
  const double B = 3072, sq = 2048, l = 128, h = 25600, V = 51200;
  const double by_hand = 96 * B * sq * l * h * h * (1 + sq / (6 * h) + V / (16 * l * h));
  CHECK(scenario::megatron_flops_per_iteration(r, 2048, 51200) == zs::test::approx(by_hand).epsilon(1e-12));
  CHECK(by_hand == zs::test::approx(5.139e19).epsilon(0.001));
  // At the published 163 TFLOP/s per GPU the iteration took 5.139e19 / (163e12 x 3072) = 103 s.
  CHECK(by_hand / (163e12 * 3072) == zs::test::approx(102.6).epsilon(0.005));
}

TEST_CASE("a row composes a scenario that loads: the row's plan on ceil(gpus/8) DGX servers") {
  const auto s = shipped();
  const auto& r = find(s, "table2-174.6B-ptd-p-384gpu");
  const auto composed = scenario::row_scenario(s, r);
  core::DiskFileSource disk;
  core::OverlayFileSource overlay(disk, composed.files);
  const auto sc = scenario::ScenarioLoader(overlay).load(composed.scenario_path);
  CHECK(sc.machine.unit_count() == 384);
  CHECK(sc.trace.mesh.size() == 384);
  CHECK(sc.fidelity == core::Fidelity::kCollapsed);
  const auto& plan = sc.resolved["workload"];
  CHECK(plan["data_parallel"] == 4);
  CHECK(plan["tensor_parallel"] == 8);
  CHECK(plan["pipeline_parallel"] == 12);
  CHECK(plan["schedule"] == "interleaved-1f1b");
  CHECK(plan["virtual_stages"] == 4);
  CHECK(plan["recompute"] == "full");
  CHECK(plan["flash_attention"] == false);
  CHECK(plan["batched_exchanges"] == true);  // Megatron-LM 2021's pipeline exchanges
  CHECK(plan["micro_batch"] == 1);
  CHECK(sc.resolved["workload"]["model"]["ffn_hidden"] == 4 * 12288);

  const auto zero = scenario::row_scenario(s, find(s, "table2-174.6B-zero-3-768gpu"));
  core::OverlayFileSource overlay3(disk, zero.files);
  const auto sz = scenario::ScenarioLoader(overlay3).load(zero.scenario_path);
  CHECK(sz.resolved["workload"]["zero_stage"] == 3);
  CHECK(sz.resolved["workload"]["data_parallel"] == 768);
  CHECK(sz.resolved["workload"]["schedule"] == "1f1b");
}

TEST_CASE("the Table 2 trend test holds on the paper's own figures, and fails when ZeRO-3 would win") {
  const auto s = shipped();
  std::vector<scenario::RowResult> results;
  for (const auto& r : s.rows) results.push_back({r, std::nullopt, 0.0, "not run"});
  const auto trends = scenario::table2_trends(results, true);
  REQUIRE(trends.size() == 2);
  for (const auto& t : trends) CHECK(t.holds);
  CHECK(trends[0].scales == 3);  // 174.6B: 384, 768, 1536 GPUs with both schemes
  CHECK(trends[1].scales == 2);  // 529.6B: 1120 and 2240 (ZeRO-3 ran on 640 where PTD-P ran on 560)
  CHECK(trends[0].zero3_retained == doctest::Approx(44.0 / 144.0));
  CHECK(trends[0].ptdp_retained == doctest::Approx(141.0 / 153.0));

  // Predictions where ZeRO-3 keeps its throughput: the trend must not hold.
  for (auto& r : results)
    r.predicted_tflops = r.row.scheme == scenario::ValidationScheme::kZero3 ? 200.0 : 150.0;
  for (const auto& t : scenario::table2_trends(results, false)) CHECK_FALSE(t.holds);
  // Without predictions there is nothing to compare: not checked, and the summary fails.
  for (auto& r : results) r.predicted_tflops.reset();
  const auto summary = scenario::summarize(s, results);
  CHECK(summary.predicted == 0);
  CHECK_FALSE(summary.passed);
}

TEST_CASE("the summary counts rows within the tolerance and the mean absolute error") {
  const auto s = shipped();
  std::vector<scenario::RowResult> results;
  for (const auto& r : s.rows) {
    if (r.table != 1) continue;
    results.push_back({r, r.published_tflops * 1.10, 1.0, ""});
  }
  results[0].predicted_tflops = results[0].row.published_tflops * 0.80;  // 20% low: outside
  const auto sum = scenario::summarize(s, results);
  CHECK(sum.rows == 10);
  CHECK(sum.within == 9);
  CHECK(sum.mean_abs_error == doctest::Approx((9 * 0.10 + 0.20) / 10));
  CHECK(sum.max_abs_error == doctest::Approx(0.20));
  CHECK_FALSE(sum.passed);
}

TEST_CASE("a bad rows file names the file and the line") {
  auto message = [](const std::string& csv) {
    try {
      with_rows(csv);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message("table,params\n").find("line 1: expected the header") != std::string::npos);
  CHECK(message(std::string(kHeader) + "1,1.7,ptd-p,24,2304,24,1,1,1,32,512,16\n")
            .find("line 2: expected 13 columns") != std::string::npos);
  CHECK(message(std::string(kHeader) + "1,1.7,ptd-p,24,2304,24,1,1,1,32,512,sixteen,137\n")
            .find("line 2, column micro_batch: expected a positive integer, got \"sixteen\"") !=
        std::string::npos);
  CHECK(message(std::string(kHeader) + "1,1.7,fsdp,24,2304,24,1,1,1,32,512,16,137\n")
            .find("column scheme: expected ptd-p or zero-3") != std::string::npos);
  CHECK(message(std::string(kHeader) + "1,1.7,ptd-p,24,2304,24,8,1,1,36,512,16,137\n")
            .find("does not divide gpus (36)") != std::string::npos);
  CHECK(message(std::string(kHeader)).find("expected at least one row") != std::string::npos);
  CHECK(message(std::string(kHeader)).find("megatron-sc21.csv") != std::string::npos);
}
