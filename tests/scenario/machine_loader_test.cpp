// A machine's parts read on their own: bound models, and topology files of each kind bound to them.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "core/input_error.hpp"
#include "scenario/machine_loader.hpp"
#include "support/input_error_of.hpp"
#include "support/scenario_files.hpp"

using namespace zs;

namespace {

/// The hand-made scenario's models and topology as in-memory files under machines/.
core::BundledFileSource hand_files() {
  test::ScenarioFiles hand;
  return core::BundledFileSource({{"models/gpu.json", hand.gpu.dump()},
                                  {"models/link.json", hand.link.dump()},
                                  {"topologies/switch-4.json", hand.topology.dump()}});
}

const nlohmann::json kBindings = {{"gpu", "../models/gpu.json"}, {"link", "../models/link.json"}};

scenario::BoundModels bound(const core::FileSource& files, const nlohmann::json& bindings = kBindings) {
  core::JsonObject object(bindings, "machines/m.json", "/models");
  return scenario::load_models(files, object);
}

}  // namespace

TEST_CASE("models are read by kind under their binding names, relative to the bindings' file") {
  const auto files = hand_files();
  const auto models = bound(files);
  CHECK(models.models.units.size() == 1);
  CHECK(models.models.links.size() == 1);
  CHECK(models.models.units.count("gpu") == 1);
  CHECK(models.resolved["gpu"]["matrix_peak"]["bf16"] == "100TFLOP/s");
  CHECK(models.resolved["link"]["latency"] == "1us");
}

TEST_CASE("a model of an unknown kind, or a missing model file, is refused at its file or binding") {
  test::ScenarioFiles hand;
  nlohmann::json odd = hand.link;
  odd["kind"] = "wire";
  const core::BundledFileSource files({{"models/odd.json", odd.dump()}});
  const std::string unknown = test::input_error_of([&] { bound(files, {{"x", "../models/odd.json"}}); });
  CHECK(unknown.find("models/odd.json") != std::string::npos);
  CHECK(unknown.find("unknown model kind \"wire\"") != std::string::npos);
  const std::string missing = test::input_error_of([&] { bound(files, {{"x", "../models/none.json"}}); });
  CHECK(missing.find("machines/m.json") != std::string::npos);
  CHECK(missing.find("/models/x") != std::string::npos);
}

TEST_CASE("a topology file is built with the bound models, and a kind that is not a string is refused") {
  const auto files = hand_files();
  const auto models = bound(files);
  const auto generators = topology::builtin_topology_generators();
  const std::string path = "topologies/switch-4.json";
  nlohmann::json resolved;
  const auto machine = scenario::build_topology_file(files, files.read_json(path), path, models.models,
                                                     generators, 1000, &resolved);
  CHECK(machine.unit_count() == 4);
  CHECK(resolved["generator"] == "single-switch");

  const std::string over = test::input_error_of([&] {
    scenario::build_topology_file(files, files.read_json(path), path, models.models, generators, 4);
  });
  CHECK(over.find(path) != std::string::npos);

  test::ScenarioFiles hand;
  nlohmann::json numbered = hand.topology;
  numbered["kind"] = 5;
  const std::string kind = test::input_error_of(
      [&] { scenario::build_topology_file(files, numbered, path, models.models, generators, 1000); });
  CHECK(kind.find(path) != std::string::npos);
  CHECK(kind.find("/kind") != std::string::npos);
}
