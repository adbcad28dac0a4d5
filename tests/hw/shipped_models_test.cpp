// Every model file shipped in models/ loads; switch and optical switch models carry their figures.
#include <doctest/doctest.h>

#include <filesystem>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "hw/compute_unit_model.hpp"
#include "hw/file_system_model.hpp"
#include "hw/link_model.hpp"
#include "hw/memory_pool_model.hpp"
#include "hw/optical_switch_model.hpp"
#include "hw/software_stack_model.hpp"
#include "hw/switch_model.hpp"

using namespace zs;
namespace fs = std::filesystem;

namespace {
nlohmann::json read_model(const std::string& name) {
  core::DiskFileSource files;
  return files.read_json(std::string(ZS_SOURCE_DIR) + "/models/" + name + ".json");
}
}  // namespace

TEST_CASE("every shipped model file loads as its kind") {
  core::DiskFileSource files;
  std::map<std::string, int> kinds;
  for (const auto& entry : fs::directory_iterator(fs::path(ZS_SOURCE_DIR) / "models")) {
    if (entry.path().extension() != ".json") continue;
    std::string path = entry.path().string();
    CAPTURE(path);
    auto doc = files.read_json(path);
    core::JsonObject o(doc, path, "");
    std::string kind = doc.at("kind").get<std::string>();
    if (kind == "compute-unit")
      CHECK_NOTHROW(hw::ComputeUnitModel::from_json(o));
    else if (kind == "link")
      CHECK_NOTHROW(hw::LinkModel::from_json(o));
    else if (kind == "memory-pool")
      CHECK_NOTHROW(hw::MemoryPoolModel::from_json(o));
    else if (kind == "switch")
      CHECK_NOTHROW(hw::SwitchModel::from_json(o));
    else if (kind == "optical-circuit-switch")
      CHECK_NOTHROW(hw::OpticalSwitchModel::from_json(o));
    else if (kind == "file-system")
      CHECK_NOTHROW(hw::FileSystemModel::from_json(o));
    else if (kind == "software-stack")
      CHECK_NOTHROW(hw::SoftwareStackModel::from_json(o));
    else
      FAIL("unknown model kind " << kind);
    ++kinds[kind];
  }
  CHECK(kinds["compute-unit"] >= 7);  // A100, H100, B200, MI300X, TPU v5p, a generic NPU, a host CPU
  CHECK(kinds["link"] >= 12);
  CHECK(kinds["memory-pool"] >= 2);  // a CXL pool and host DRAM
  CHECK(kinds["switch"] >= 3);
  CHECK(kinds["optical-circuit-switch"] >= 1);
  CHECK(kinds["file-system"] >= 1);
  CHECK(kinds["software-stack"] >= 3);
}

TEST_CASE("a file system's transfer is limited by its aggregate bandwidth or by its clients' paths") {
  auto doc = read_model("tectonic-240pb");
  core::JsonObject o(doc, "tectonic-240pb.json", "");
  const auto fs = hw::FileSystemModel::from_json(o);
  CHECK(fs.capacity().value() == 240e15);
  CHECK(fs.write_bandwidth().value() == 2e12);  // Llama 3: 2 TB/s sustained
  // 16,384 clients x 6.25 GB/s = 102 TB/s: the store's 2 TB/s is the limit.
  CHECK(fs.write_time(core::Bytes(4e12), 16384).value() == doctest::Approx(2.0).epsilon(1e-12));
  // 8 clients x 6.25 GB/s = 50 GB/s: their own paths are.
  CHECK(fs.read_time(core::Bytes(100e9), 8).value() == doctest::Approx(2.0).epsilon(1e-12));
  auto bad = doc;
  bad["write_bandwidth"] = "2TB";
  core::JsonObject b(bad, "fs.json", "");
  CHECK_THROWS_WITH_AS(hw::FileSystemModel::from_json(b), doctest::Contains("fs.json: /write_bandwidth"),
                       core::InputError);
}

TEST_CASE("the shipped switch models carry their datasheet figures") {
  auto doc = read_model("quantum-2-ndr");
  core::JsonObject o(doc, "quantum-2-ndr.json", "");
  auto sw = hw::SwitchModel::from_json(o);
  CHECK(sw.radix() == 64);
  CHECK(sw.port_bandwidth().value() == 50e9);  // 400 Gb/s
  CHECK(sw.in_network_reduction());
  auto ocs_doc = read_model("palomar-ocs");
  core::JsonObject ocs_json(ocs_doc, "palomar-ocs.json", "");
  auto ocs = hw::OpticalSwitchModel::from_json(ocs_json);
  CHECK(ocs.ports() == 136);
  CHECK(ocs.reconfiguration_time().value() == 10e-3);
  CHECK(ocs.circuit_link().bandwidth().value() == 100e9);
}

TEST_CASE("switch models must say whether they reduce in the network, and cite every figure") {
  auto doc = read_model("quantum-2-ndr");
  doc.erase("in_network_reduction");
  core::JsonObject o(doc, "sw.json", "");
  CHECK_THROWS_WITH_AS(
      hw::SwitchModel::from_json(o),
      "sw.json: /in_network_reduction: missing; expected true or false (SHARP/NVLS-style reduction)",
      core::InputError);
  auto ocs = read_model("palomar-ocs");
  ocs["reconfiguration_time"] = "10";
  core::JsonObject p(ocs, "ocs.json", "");
  CHECK_THROWS_AS(hw::OpticalSwitchModel::from_json(p), core::InputError);
}
