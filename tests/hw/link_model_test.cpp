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
