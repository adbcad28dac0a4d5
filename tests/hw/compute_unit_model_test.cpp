// Compute unit models: the shipped files load, the roofline cost function, source citations enforced.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "hw/compute_unit_model.hpp"
#include "support/test_machines.hpp"

using namespace zs;

namespace {
hw::ComputeUnitModel load(const std::string& rel) {
  core::DiskFileSource files;
  std::string path = std::string(ZS_SOURCE_DIR) + "/" + rel;
  auto doc = files.read_json(path);
  core::JsonObject o(doc, path, "");
  return hw::ComputeUnitModel::from_json(o);
}

std::string error_loading(nlohmann::json j) {
  try {
    core::JsonObject o(j, "gpu.json", "");
    hw::ComputeUnitModel::from_json(o);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("the shipped H100 model carries the datasheet figures") {
  auto h100 = load("models/h100-sxm.json");
  CHECK(h100.name() == "h100-sxm");
  CHECK(h100.matrix_peak(core::Dtype::kBf16).value() == 989e12);
  CHECK(h100.matrix_peak(core::Dtype::kFp8).value() == 1979e12);
  CHECK(h100.hbm_capacity().value() == 80e9);
  CHECK(h100.hbm_bandwidth().value() == 3.35e12);
  CHECK_FALSE(h100.supports(core::Dtype::kFp4));
}

TEST_CASE("compute time is FLOPs / (peak x efficiency) plus the launch overhead when compute-bound") {
  auto m = test::unit_model("1000TFLOPS", 0.5, "0s");
  hw::ComputeWork w{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1};
  CHECK(m.compute_time(w).value() == 1e12 / (1000e12 * 0.5));  // exactly, with no launch overhead
  auto with_launch = test::unit_model("1000TFLOPS", 0.5, "4us");
  w.kernels = 3;
  CHECK(with_launch.compute_time(w).value() == doctest::Approx(3 * 4e-6 + 1e12 / 500e12).epsilon(1e-15));
}

TEST_CASE("memory-bound work takes bytes / (bandwidth x efficiency)") {
  auto m = test::unit_model("1000TFLOPS", 0.5, "0s");  // HBM 2 TB/s at efficiency 1
  hw::ComputeWork w{core::Flops(1e9), core::Bytes(4e9), core::Dtype::kFp32, core::WorkKind::kVector, 1};
  CHECK(m.compute_time(w).value() == 4e9 / 2e12);
  w.kind = core::WorkKind::kMatrix;
  CHECK_THROWS_AS(m.compute_time(w), std::invalid_argument);  // no fp32 matrix peak in this model
}

TEST_CASE("every parameter needs a source, and sources name only parameters") {
  auto j = test::unit_model_json("1PFLOPS", 0.5, "1us");
  j["sources"].erase("hbm_bandwidth");
  CHECK(error_loading(j) ==
        "gpu.json: /sources: missing the source of parameter \"hbm_bandwidth\" (every value needs one)");
  j = test::unit_model_json("1PFLOPS", 0.5, "1us");
  j["sources"]["matrix_peak.fp8"] = "made up";
  CHECK(error_loading(j) ==
        "gpu.json: /sources/matrix_peak.fp8: cites a source for a parameter this model does not set");
}

TEST_CASE("bad model files name the JSON path") {
  auto j = test::unit_model_json("1PFLOPS", 0.5, "1us");
  j["matrix_peak"]["bf17"] = "1PFLOPS";
  CHECK(error_loading(j).find("gpu.json: /matrix_peak/bf17: unknown dtype") == 0);
  j = test::unit_model_json("1PFLOPS", 1.5, "1us");
  CHECK(error_loading(j).find("gpu.json: /matrix_efficiency: expected a number in [") == 0);
  j = test::unit_model_json("1PFLOPS", 0.5, "1us");
  j["hbm_bandwidth"] = "3.35TB";
  CHECK(error_loading(j).find("gpu.json: /hbm_bandwidth: \"3.35TB\": unknown unit") == 0);
  j = test::unit_model_json("1PFLOPS", 0.5, "1us");
  j["tdp"] = "700W";
  CHECK(error_loading(j).find("gpu.json: /tdp: unknown key") == 0);
}
