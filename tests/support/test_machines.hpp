// Test helpers: hardware models and single-switch machines built from plain numbers.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "hw/compute_unit_model.hpp"
#include "hw/link_model.hpp"
#include "hw/memory_pool_model.hpp"
#include "hw/optical_switch_model.hpp"
#include "hw/switch_model.hpp"
#include "topology/machine.hpp"
#include "topology/model_binder.hpp"
#include "topology/routing.hpp"

namespace zs::test {

/// A compute-unit model file as JSON, with a source for every parameter.
inline nlohmann::json unit_model_json(const std::string& bf16_peak, double matrix_eff,
                                      const std::string& launch, const std::string& capacity = "80GB") {
  nlohmann::json j = {{"kind", "compute-unit"},
                      {"name", "test-gpu"},
                      {"matrix_peak", {{"bf16", bf16_peak}}},
                      {"vector_peak", "50TFLOPS"},
                      {"matrix_efficiency", matrix_eff},
                      {"vector_efficiency", 0.5},
                      {"hbm_capacity", capacity},
                      {"hbm_bandwidth", "2TB/s"},
                      {"hbm_efficiency", 1.0},
                      {"kernel_launch_overhead", launch},
                      {"idle_power", "100W"},
                      {"load_power", "500W"},
                      {"host_power", "50W"}};
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& key : {"matrix_peak.bf16", "vector_peak", "matrix_efficiency", "vector_efficiency",
                          "hbm_capacity", "hbm_bandwidth", "hbm_efficiency", "kernel_launch_overhead",
                          "idle_power", "load_power", "host_power"})
    sources[key] = "test value";
  j["sources"] = sources;
  return j;
}

inline hw::ComputeUnitModel unit_model(const std::string& bf16_peak, double matrix_eff,
                                       const std::string& launch) {
  nlohmann::json j = unit_model_json(bf16_peak, matrix_eff, launch);
  core::JsonObject o(j, "test-gpu.json", "");
  return hw::ComputeUnitModel::from_json(o);
}

/// A link model from plain values; a non-empty `step_latency` adds a collective library's per-step latency.
inline hw::LinkModel link_model(const std::string& bandwidth, const std::string& latency,
                                const std::string& step_latency = "",
                                const std::string& step_latency_ll128 = "",
                                const std::string& step_latency_ll = "") {
  nlohmann::json j = {{"kind", "link"},
                      {"name", "test-link"},
                      {"bandwidth", bandwidth},
                      {"latency", latency},
                      {"unit_port_power", "10W"},
                      {"switch_port_power", "20W"},
                      {"sources",
                       {{"bandwidth", "test value"},
                        {"latency", "test value"},
                        {"unit_port_power", "test value"},
                        {"switch_port_power", "test value"}}}};
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"step_latency", step_latency},
                                   {"step_latency_ll128", step_latency_ll128},
                                   {"step_latency_ll", step_latency_ll}})
    if (!value.empty()) {
      j[key] = value;
      j["sources"][key] = "test value";
    }
  core::JsonObject o(j, "test-link.json", "");
  return hw::LinkModel::from_json(o);
}

/// A memory pool model named "cxl" from plain values, with a source for every parameter.
inline hw::MemoryPoolModel memory_pool_model(int ports, const std::string& port_bandwidth,
                                             const std::string& load_latency) {
  nlohmann::json j = {
      {"kind", "memory-pool"},
      {"name", "cxl"},
      {"capacity", "1TB"},
      {"ports", ports},
      {"port_bandwidth", port_bandwidth},
      {"load_latency", load_latency},
      {"power", "300W"},
      {"sources",
       {{"capacity", "t"}, {"ports", "t"}, {"port_bandwidth", "t"}, {"load_latency", "t"}, {"power", "t"}}}};
  core::JsonObject o(j, "cxl.json", "");
  return hw::MemoryPoolModel::from_json(o);
}

/// An optical circuit switch model named "test-ocs" from plain values (latency 100 ns).
inline hw::OpticalSwitchModel optical_switch_model(int ports, const std::string& reconfiguration,
                                                   const std::string& circuit_bandwidth) {
  nlohmann::json j = {{"kind", "optical-circuit-switch"},
                      {"name", "test-ocs"},
                      {"ports", ports},
                      {"reconfiguration_time", reconfiguration},
                      {"circuit_bandwidth", circuit_bandwidth},
                      {"latency", "100ns"},
                      {"power", "100W"},
                      {"transceiver_power", "15W"},
                      {"sources",
                       {{"ports", "t"},
                        {"reconfiguration_time", "t"},
                        {"circuit_bandwidth", "t"},
                        {"latency", "t"},
                        {"power", "t"},
                        {"transceiver_power", "t"}}}};
  core::JsonObject o(j, "ocs.json", "");
  return hw::OpticalSwitchModel::from_json(o);
}

/// A packet switch model named "test-switch" (50 GB/s ports, in-network reduction at the given fraction of
/// port bandwidth).
inline hw::SwitchModel switch_model(int radix, const std::string& latency,
                                    double reduction_efficiency = 1.0) {
  nlohmann::json j = {{"kind", "switch"},
                      {"name", "test-switch"},
                      {"radix", radix},
                      {"port_bandwidth", "50GB/s"},
                      {"latency", latency},
                      {"in_network_reduction", true},
                      {"reduction_efficiency", reduction_efficiency},
                      {"sources",
                       {{"radix", "t"},
                        {"port_bandwidth", "t"},
                        {"latency", "t"},
                        {"in_network_reduction", "t"},
                        {"reduction_efficiency", "t"}}}};
  core::JsonObject o(j, "switch.json", "");
  return hw::SwitchModel::from_json(o);
}

/// n units, each on its own link to one switch whose model is `switch_model` (topology::kNoModel: none,
/// its hops cost only the links').
inline topology::Machine star_machine(int n, const hw::ComputeUnitModel& unit, const hw::LinkModel& link,
                                      uint32_t switch_model) {
  topology::Machine m;
  m.name = "test-switch-" + std::to_string(n);
  m.generator = "single-switch";
  m.unit_models.push_back(unit);
  m.link_models.push_back(link);
  auto sw = m.topology.add_switch("switch", switch_model);
  for (int i = 0; i < n; ++i) m.topology.add_link(m.topology.add_unit("unit" + std::to_string(i), 0), sw, 0);
  return m;
}

/// n units, each on its own link to one switch without a model.
inline topology::Machine single_switch_machine(int n, const hw::ComputeUnitModel& unit,
                                               const hw::LinkModel& link) {
  return star_machine(n, unit, link, topology::kNoModel);
}

/// The same with a switch model (e.g. one that reduces in the network).
inline topology::Machine single_switch_machine(int n, const hw::ComputeUnitModel& unit,
                                               const hw::LinkModel& link,
                                               const hw::SwitchModel& switch_model) {
  topology::Machine m = star_machine(n, unit, link, 0);
  m.switch_models.push_back(switch_model);
  return m;
}

/// `leaves` leaf switches of `per_leaf` units under one spine, each leaf's uplink `per_leaf` links wide
/// (no oversubscription); units are created leaf by leaf and named "leafL-uK". 100 GB/s, 1 us links.
/// Models for generated test topologies: "gpu" (1 PFLOP/s), "nvlink" (450 GB/s, 0.5 us) and "nic" (50 GB/s,
/// 1 us).
inline topology::ModelSet gpu_nvlink_nic_models() {
  topology::ModelSet m;
  m.units.emplace("gpu", unit_model("1PFLOPS", 0.5, "0s"));
  m.links.emplace("nvlink", link_model("450GB/s", "0.5us"));
  m.links.emplace("nic", link_model("50GB/s", "1us"));
  return m;
}

inline topology::Machine tree_machine(int leaves, int per_leaf) {
  topology::Machine m;
  m.name = "tree-" + std::to_string(leaves * per_leaf);
  m.generator = "test";
  m.unit_models.push_back(unit_model("1PFLOPS", 1, "0s"));
  m.link_models.push_back(link_model("100GB/s", "1us"));
  auto& t = m.topology;
  const auto spine = t.add_switch("spine");
  for (int l = 0; l < leaves; ++l) {
    const auto leaf = t.add_switch("leaf" + std::to_string(l));
    for (int k = 0; k < per_leaf; ++k)
      t.add_link(t.add_unit("leaf" + std::to_string(l) + "-u" + std::to_string(k), 0), leaf, 0);
    t.add_link(leaf, spine, 0, double(per_leaf));
  }
  return m;
}

/// `ranks` units of 1 PFLOP/s bf16 (full efficiency, no launch overhead) on one switch by 100 GB/s links
/// of 1 us, and the ring all-reduce's closed form over its unit-to-unit route.
struct SwitchRing {
  topology::Machine machine;
  double alpha = 0;  ///< one unit-to-unit route's latency, s
  double bw = 0;     ///< its bandwidth, B/s

  explicit SwitchRing(int ranks)
      : machine(single_switch_machine(ranks, unit_model("1PFLOPS", 1, "0s"), link_model("100GB/s", "1us"))) {
    const auto& units = machine.topology.units();
    const auto route = topology::shortest_route(machine.topology, units[0], units[1]);
    alpha = topology::route_latency(machine, route).value();
    bw = topology::route_bandwidth(machine, route).value();
  }
  /// A ring all-reduce of `bytes` over `n` members: 2(n-1) alpha + 2 (n-1)/n S/B, s.
  double all_reduce(double n, double bytes) const {
    return 2 * (n - 1) * alpha + 2 * (n - 1) / n * bytes / bw;
  }
};

}  // namespace zs::test
