// File sources: disk, embedded bundle, relative path resolution.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "support/temp_dir.hpp"

using namespace zs::core;

TEST_CASE("relative references resolve against the including file") {
  CHECK(resolve_relative("scenarios/default.json", "../models/h100.json") == "models/h100.json");
  CHECK(resolve_relative("/a/b/s.json", "t.json") == "/a/b/t.json");
  CHECK(resolve_relative("s.json", "/abs/t.json") == "/abs/t.json");
}

TEST_CASE("bundled files are found by normalized path") {
  BundledFileSource files(std::map<std::string, std::string>{{"models/x.json", "{\"a\": 1}"}});
  CHECK(files.read("scenarios/../models/x.json").value() == "{\"a\": 1}");
  CHECK(files.read_json("models/x.json")["a"] == 1);
  CHECK_FALSE(files.read("models/y.json").has_value());
}

TEST_CASE("a missing file is an input error naming it") {
  zs::test::TempDir dir;
  DiskFileSource files;
  try {
    files.read_json(dir.file("nope.json"));
    FAIL("expected an error");
  } catch (const InputError& e) {
    CHECK(e.file() == dir.file("nope.json"));
    CHECK(std::string(e.what()).find("cannot read file") != std::string::npos);
  }
  CHECK(files.read_json(dir.write("ok.json", "[1, 2]")).size() == 2);
}

TEST_CASE("a file named relatively that is missing is reported where it resolved, against its referrer") {
  zs::test::TempDir dir;
  const std::string scenario = dir.write("mine/scenario.json", R"({"model": "../models/gpu.json"})");
  const nlohmann::json doc = nlohmann::json::parse(zs::test::read_text(scenario));
  zs::core::JsonObject referrer(doc, scenario, "");
  std::string path;
  try {
    DiskFileSource().read_named(referrer, "model", path);
    FAIL("expected an error");
  } catch (const InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("/model: cannot read file") != std::string::npos);
    CHECK(what.find(zs::core::absolute_path(dir.file("models/gpu.json"))) != std::string::npos);
    CHECK(what.find("a relative path resolves against the folder of \"" + scenario + "\"") !=
          std::string::npos);
  }
}
