// Link models: the shipped NVLink4 file and its resolved form.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "hw/link_model.hpp"

using namespace zs;

TEST_CASE("the shipped NVLink4 model is 450 GB/s per direction") {
  core::DiskFileSource files;
  std::string path = std::string(ZS_SOURCE_DIR) + "/models/nvlink4.json";
  auto doc = files.read_json(path);
  core::JsonObject o(doc, path, "");
  auto link = hw::LinkModel::from_json(o);
  CHECK(link.bandwidth().value() == 450e9);
  CHECK(link.latency().value() == 0.5e-6);
  CHECK(link.to_json()["bandwidth"] == "450GB/s");
  CHECK(link.to_json()["latency"] == "500ns");
}

TEST_CASE("NCCL's tree steps: the shipped models' own row, the ring's where a model gives none") {
  core::DiskFileSource files;
  auto load = [&](const std::string& name) {
    const std::string path = std::string(ZS_SOURCE_DIR) + "/models/" + name + ".json";
    auto doc = files.read_json(path);
    core::JsonObject o(doc, path, "");
    return hw::LinkModel::from_json(o);
  };
  using hw::CollectiveProtocol;
  using hw::LibraryAlgorithm;
  const auto us = [](core::Seconds s) { return s.value() * 1e6; };
  const auto nvlink = load("nvlink4"), ib = load("ib-ndr");
  // NCCL 2.19's hwLat: tree NVLink 28 / 1.25 / 0.6 us, network 28 / 8.5 / 5.0 us (Simple, LL128, LL).
  CHECK(us(nvlink.step_latency(CollectiveProtocol::kSimple, LibraryAlgorithm::kTree)) == doctest::Approx(28));
  CHECK(us(nvlink.step_latency(CollectiveProtocol::kLl128, LibraryAlgorithm::kTree)) ==
        doctest::Approx(1.25));
  CHECK(us(nvlink.step_latency(CollectiveProtocol::kLl, LibraryAlgorithm::kTree)) == doctest::Approx(0.6));
  CHECK(us(ib.step_latency(CollectiveProtocol::kLl128, LibraryAlgorithm::kTree)) == doctest::Approx(8.5));
  CHECK(us(ib.step_latency(CollectiveProtocol::kLl, LibraryAlgorithm::kTree)) == doctest::Approx(5.0));
  CHECK(us(ib.step_latency(CollectiveProtocol::kSimple)) == doctest::Approx(14));  // the ring's row
  nlohmann::json plain = {{"kind", "link"},
                          {"name", "plain"},
                          {"description", "test"},
                          {"bandwidth", "100GB/s"},
                          {"latency", "1us"},
                          {"step_latency", "10us"},
                          {"step_latency_ll", "2us"},
                          {"unit_port_power", "0W"},
                          {"switch_port_power", "0W"},
                          {"sources",
                           {{"bandwidth", "test"},
                            {"latency", "test"},
                            {"step_latency", "test"},
                            {"step_latency_ll", "test"},
                            {"unit_port_power", "test"},
                            {"switch_port_power", "test"}}}};
  core::JsonObject o(plain, "plain.json", "");
  const auto link = hw::LinkModel::from_json(o);
  CHECK(us(link.step_latency(CollectiveProtocol::kSimple, LibraryAlgorithm::kTree)) == doctest::Approx(10));
  CHECK(us(link.step_latency(CollectiveProtocol::kLl, LibraryAlgorithm::kTree)) == doctest::Approx(2));
}
