// Compute unit models: the shipped files load, the roofline cost function, source citations enforced.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/file_source.hpp"
#include "hw/compute_unit_model.hpp"
#include "support/approx.hpp"
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
  CHECK(with_launch.compute_time(w).value() == zs::test::approx(3 * 4e-6 + 1e12 / 500e12).epsilon(1e-15));
}

TEST_CASE("with a half-efficiency work size, small kernels run at w / (w + w_half) of the large-GEMM rate") {
  auto j = test::unit_model_json("1000TFLOPS", 0.8, "0s");
  j["matrix_half_efficiency_work"] = "2GFLOP";
  j["sources"]["matrix_half_efficiency_work"] = "test value";
  core::JsonObject o(j, "gpu.json", "");
  auto m = hw::ComputeUnitModel::from_json(o);
  CHECK(m.matrix_efficiency_at(core::Dtype::kBf16, core::Flops(2e9)) ==
        zs::test::approx(0.4));  // half of 0.8 at w_half
  CHECK(m.matrix_efficiency_at(core::Dtype::kBf16, core::Flops(2e12)) ==
        zs::test::approx(0.8 * 1000 / 1001.0));
  // 10 kernels of 1 GFLOP each: efficiency 0.8/3, and the launch overhead is zero here.
  hw::ComputeWork w{core::Flops(1e10), core::Bytes(0.0), core::Dtype::kBf16, core::WorkKind::kMatrix, 10};
  CHECK(m.compute_time(w).value() == zs::test::approx(1e10 / (1000e12 * 0.8 / 3)).epsilon(1e-12));
  // The same FLOPs in one kernel are faster: efficiency 0.8 x 10 / 12.
  w.kernels = 1;
  CHECK(m.compute_time(w).value() == zs::test::approx(1e10 / (1000e12 * 0.8 * 10 / 12)).epsilon(1e-12));
  // Vector work is not affected, and the resolved form keeps the parameter.
  CHECK(m.to_json()["matrix_half_efficiency_work"] == "2GFLOP");
  auto constant = test::unit_model("1000TFLOPS", 0.8, "0s");
  CHECK(constant.matrix_efficiency_at(core::Dtype::kBf16, core::Flops(1e3)) == 0.8);
  CHECK_FALSE(constant.to_json().contains("matrix_half_efficiency_work"));
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

TEST_CASE("the H100 model reproduces the matrix products measured on an H100, each dtype at its efficiency") {
  auto h100 = load("models/h100-sxm.json");
  CHECK(h100.matrix_efficiency(core::Dtype::kBf16) == 0.72);
  CHECK(h100.matrix_efficiency(core::Dtype::kFp8) == 0.65);
  for (const char* dtype : {"bf16", "fp16", "fp8", "tf32"}) {
    CAPTURE(dtype);
    std::ifstream csv(std::string(ZS_SOURCE_DIR) + "/models/calibration/h100-sxm-80gb.csv");
    REQUIRE(csv.good());
    std::string line;
    std::getline(csv, line);  // header: measurement,dtype,m,n,k,work,seconds,rate,rate_unit
    double sum_abs_error = 0.0;
    int rows = 0;
    while (std::getline(csv, line)) {
      std::vector<std::string> f;
      std::stringstream fields(line);
      for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
      if (f.size() < 7 || f[0] != "gemm" || f[1] != dtype) continue;
      const double flops = std::stod(f[5]), measured = std::stod(f[6]);
      if (flops < 1e11) continue;  // smaller products were bound by the host's launch rate, not the GPU
      hw::ComputeWork w{core::Flops(flops), core::Bytes(0.0), *core::parse_dtype(dtype),
                        core::WorkKind::kMatrix, 1};
      const double error = h100.compute_time(w).value() / measured - 1.0;
      CAPTURE(line);
      CHECK(std::abs(error) <
            0.25);  // the worst shape measured (bf16 8192x6144x8192) ran 21% below the median
      sum_abs_error += std::abs(error);
      ++rows;
    }
    REQUIRE(rows >= 10);
    CHECK(sum_abs_error / rows < 0.08);  // with bf16's 0.72 for every dtype, fp8's would be 11%
  }
}

TEST_CASE("a dtype's own matrix efficiency applies to its work only, and must name a dtype with a peak") {
  auto j = test::unit_model_json("1000TFLOPS", 0.8, "0s");
  j["matrix_peak"]["fp8"] = "2000TFLOPS";
  j["sources"]["matrix_peak.fp8"] = "test value";
  j["matrix_efficiency_by_dtype"] = {{"fp8", 0.5}};
  j["sources"]["matrix_efficiency_by_dtype.fp8"] = "test value";
  core::JsonObject o(j, "gpu.json", "");
  auto m = hw::ComputeUnitModel::from_json(o);
  hw::ComputeWork w{core::Flops(1e12), core::Bytes(0.0), core::Dtype::kFp8, core::WorkKind::kMatrix, 1};
  CHECK(m.compute_time(w).value() == 1e12 / (2000e12 * 0.5));
  w.dtype = core::Dtype::kBf16;
  CHECK(m.compute_time(w).value() == 1e12 / (1000e12 * 0.8));
  CHECK(m.to_json()["matrix_efficiency_by_dtype"]["fp8"] == 0.5);
  j["matrix_efficiency_by_dtype"] = {{"fp64", 0.5}};
  j["sources"].erase("matrix_efficiency_by_dtype.fp8");
  j["sources"]["matrix_efficiency_by_dtype.fp64"] = "test value";
  CHECK(error_loading(j) ==
        "gpu.json: /matrix_efficiency_by_dtype/fp64: no matrix_peak is given for this dtype");
  j["matrix_efficiency_by_dtype"] = {{"fp8", 1.5}};
  j["sources"].erase("matrix_efficiency_by_dtype.fp64");
  j["sources"]["matrix_efficiency_by_dtype.fp8"] = "test value";
  CHECK(error_loading(j).find("gpu.json: /matrix_efficiency_by_dtype/fp8: ") == 0);
  j["matrix_efficiency_by_dtype"] = {{"fp8", 0.5}};
  j["sources"].erase("matrix_efficiency_by_dtype.fp8");
  CHECK(error_loading(j).find("missing the source of parameter \"matrix_efficiency_by_dtype.fp8\"") !=
        std::string::npos);
}
