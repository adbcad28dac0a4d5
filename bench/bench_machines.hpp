// Benchmark helpers: synthetic machines of a given generator and size, with fixed benchmark models.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "core/json_object.hpp"
#include "topology/machine_builder.hpp"

namespace zs::bench {

/// A topology description of `units` units for `generator` (torus, fat-tree, dragonfly, disaggregated).
inline nlohmann::json topology_for(const std::string& generator, int64_t units) {
  nlohmann::json j = {
      {"kind", "topology"}, {"name", generator}, {"generator", generator}, {"unit_model", "gpu"}};
  if (generator == "torus") {
    int64_t x = 1;  // dims x, x, 2x for a power of two: 8192 = 16x16x32
    while (2 * x * x * x < units) x *= 2;
    if (2 * x * x * x != units) throw std::invalid_argument("torus sizes are 2x^3 for a power of two x");
    j["dims"] = {x, x, 2 * x};
    j["link_model"] = "link";
  } else if (generator == "fat-tree") {
    j["units"] = units;
    int64_t pod = units < 4096 ? units : 4096;
    j["levels"] = {
        {{"units_per_switch", 16}, {"link_model", "link"}},
        {{"units_per_switch", pod}, {"link_model", "link"}, {"oversubscription", pod == units ? 1 : 4}},
        {{"units_per_switch", units}, {"link_model", "link"}}};
    if (pod == units) j["levels"][1].erase("oversubscription");
  } else if (generator == "dragonfly") {
    // g groups of a routers, h = g - 1 global links per router, p units per router.
    int64_t g = units == 8192 ? 8 : units == 65536 ? 16 : 32, a = 2 * g;
    j["groups"] = g;
    j["routers_per_group"] = a;
    j["global_links_per_router"] = g - 1;
    j["units_per_router"] = units / (g * a);
    j["unit_link_model"] = j["local_link_model"] = j["global_link_model"] = "link";
  } else if (generator == "disaggregated") {
    // Racks of 64 units with a CXL pool each, 128 racks per pod (fewer when small), pods joined by
    // pods - 1 optical switches.
    int64_t racks = std::min<int64_t>(128, units / 64 / 2), pods = units / 64 / racks;
    j["pods"] = pods;
    j["racks_per_pod"] = racks;
    j["rack"] = {{"units", 64},
                 {"unit_model", "gpu"},
                 {"scale_up_link", "link"},
                 {"memory_pools", {{"model", "cxl"}, {"count", 1}}}};
    j["scale_out"] = {{"nic_link", "link"}};
    j["optical_core"] = {{"model", "ocs"}, {"switches", pods - 1}, {"ports_per_pod", 2}};
    j.erase("unit_model");
  } else {
    throw std::invalid_argument("unknown generator " + generator);
  }
  return j;
}

inline nlohmann::json unit_json() {
  nlohmann::json j = {{"kind", "compute-unit"},
                      {"name", "gpu"},
                      {"matrix_peak", {{"bf16", "1PFLOPS"}}},
                      {"vector_peak", "50TFLOPS"},
                      {"matrix_efficiency", 0.7},
                      {"vector_efficiency", 0.5},
                      {"hbm_capacity", "80GB"},
                      {"hbm_bandwidth", "3TB/s"},
                      {"hbm_efficiency", 0.9},
                      {"kernel_launch_overhead", "4us"},
                      {"idle_power", "70W"},
                      {"load_power", "700W"},
                      {"host_power", "200W"}};
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& [k, v] : j.items())
    if (k != "kind" && k != "name" && k != "matrix_peak") sources[k] = "benchmark value";
  sources["matrix_peak.bf16"] = "benchmark value";
  j["sources"] = sources;
  return j;
}

/// The benchmark's models: a 1 PFLOP/s unit "gpu", a 50 GB/s 1 us "link", a CXL pool "cxl", an OCS "ocs".
inline topology::ModelSet benchmark_models() {
  topology::ModelSet models;
  nlohmann::json unit = unit_json();
  core::JsonObject unit_obj(unit, "bench", "");
  models.units.emplace("gpu", hw::ComputeUnitModel::from_json(unit_obj));
  nlohmann::json link = {{"kind", "link"},
                         {"name", "link"},
                         {"bandwidth", "50GB/s"},
                         {"latency", "1us"},
                         {"unit_port_power", "25W"},
                         {"switch_port_power", "25W"},
                         {"sources",
                          {{"bandwidth", "benchmark value"},
                           {"latency", "benchmark value"},
                           {"unit_port_power", "benchmark value"},
                           {"switch_port_power", "benchmark value"}}}};
  core::JsonObject link_obj(link, "bench", "");
  models.links.emplace("link", hw::LinkModel::from_json(link_obj));
  nlohmann::json cxl = {
      {"kind", "memory-pool"},
      {"name", "cxl"},
      {"capacity", "2TB"},
      {"ports", 8},
      {"port_bandwidth", "64GB/s"},
      {"load_latency", "250ns"},
      {"power", "540W"},
      {"sources",
       {{"capacity", "b"}, {"ports", "b"}, {"port_bandwidth", "b"}, {"load_latency", "b"}, {"power", "b"}}}};
  core::JsonObject cxl_obj(cxl, "bench", "");
  models.memories.emplace("cxl", hw::MemoryPoolModel::from_json(cxl_obj));
  nlohmann::json ocs = {{"kind", "optical-circuit-switch"},
                        {"name", "ocs"},
                        {"ports", 136},
                        {"reconfiguration_time", "10ms"},
                        {"circuit_bandwidth", "100GB/s"},
                        {"latency", "150ns"},
                        {"power", "100W"},
                        {"transceiver_power", "16W"},
                        {"sources",
                         {{"ports", "b"},
                          {"reconfiguration_time", "b"},
                          {"circuit_bandwidth", "b"},
                          {"latency", "b"},
                          {"power", "b"},
                          {"transceiver_power", "b"}}}};
  core::JsonObject ocs_obj(ocs, "bench", "");
  models.optical_switches.emplace("ocs", hw::OpticalSwitchModel::from_json(ocs_obj));

  return models;
}

/// A machine of `units` units built by `generator` with the benchmark models.
inline topology::Machine benchmark_machine(const std::string& generator, int64_t units) {
  const auto models = benchmark_models();
  nlohmann::json topo = topology_for(generator, units);
  core::JsonObject topo_obj(topo, "bench", "");
  return topology::build_machine(topo_obj, models);
}

}  // namespace zs::bench
