// Test helper: a small valid scenario (4 test GPUs, 2-layer model) written into a temporary folder.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "support/temp_dir.hpp"
#include "support/test_machines.hpp"

namespace zs::test {

struct ScenarioFiles {
  nlohmann::json scenario = {{"kind", "scenario"},
                             {"name", "hand"},
                             {"seed", 7},
                             {"machine",
                              {{"topology", "topologies/switch-4.json"},
                               {"models", {{"gpu", "models/gpu.json"}, {"link", "models/link.json"}}}}},
                             {"workload",
                              {{"generator", "ideal-data-parallel"},
                               {"model", "workloads/small.json"},
                               {"data_parallel", 4},
                               {"micro_batch", 1},
                               {"global_batch", 4}}},
                             {"policies", {{"placement", "linear"}, {"collective", "ring"}}}};
  nlohmann::json gpu = unit_model_json("100TFLOPS", 0.5, "0s");
  nlohmann::json link = {{"kind", "link"},
                         {"name", "test-link"},
                         {"bandwidth", "100GB/s"},
                         {"latency", "1us"},
                         {"unit_port_power", "0W"},
                         {"switch_port_power", "0W"},
                         {"sources",
                          {{"bandwidth", "test value"},
                           {"latency", "test value"},
                           {"unit_port_power", "test value"},
                           {"switch_port_power", "test value"}}}};
  nlohmann::json topology = {{"kind", "topology"}, {"name", "switch-4"},  {"generator", "single-switch"},
                             {"units", 4},         {"unit_model", "gpu"}, {"link_model", "link"}};
  nlohmann::json model = {{"kind", "transformer"}, {"name", "small"}, {"layers", 2},
                          {"hidden", 1024},        {"heads", 8},      {"ffn_hidden", 4096},
                          {"vocab", 1024},         {"seq_len", 1024}, {"dtype", "bf16"}};

  /// Writes every file; returns the scenario's path.
  std::string write(const TempDir& dir) const {
    dir.write("models/gpu.json", gpu.dump(2));
    dir.write("models/link.json", link.dump(2));
    dir.write("topologies/switch-4.json", topology.dump(2));
    dir.write("workloads/small.json", model.dump(2));
    return dir.write("scenario.json", scenario.dump(2));
  }
};

}  // namespace zs::test
