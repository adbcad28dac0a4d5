// Benchmark: time and peak memory to generate a machine and build its SimGrid platform.
// Usage: zs_bench_platform GENERATOR UNITS   (GENERATOR: torus, fat-tree, dragonfly, disaggregated)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/simgrid_backend.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;

namespace {

nlohmann::json topology_for(const std::string& generator, int64_t units) {
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

nlohmann::json unit_json() {
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
                      {"load_power", "700W"}};
  nlohmann::json sources = nlohmann::json::object();
  for (const auto& [k, v] : j.items())
    if (k != "kind" && k != "name" && k != "matrix_peak") sources[k] = "benchmark value";
  sources["matrix_peak.bf16"] = "benchmark value";
  j["sources"] = sources;
  return j;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: zs_bench_platform torus|fat-tree|dragonfly|disaggregated UNITS\n");
    return 2;
  }
  const std::string generator = argv[1];
  const int64_t units = std::atoll(argv[2]);
  topology::ModelSet models;
  nlohmann::json unit = unit_json();
  core::JsonObject unit_obj(unit, "bench", "");
  models.units.emplace("gpu", hw::ComputeUnitModel::from_json(unit_obj));
  nlohmann::json link = {{"kind", "link"},
                         {"name", "link"},
                         {"bandwidth", "50GB/s"},
                         {"latency", "1us"},
                         {"sources", {{"bandwidth", "benchmark value"}, {"latency", "benchmark value"}}}};
  core::JsonObject link_obj(link, "bench", "");
  models.links.emplace("link", hw::LinkModel::from_json(link_obj));
  nlohmann::json cxl = {
      {"kind", "memory-pool"},
      {"name", "cxl"},
      {"capacity", "2TB"},
      {"ports", 8},
      {"port_bandwidth", "64GB/s"},
      {"load_latency", "250ns"},
      {"sources", {{"capacity", "b"}, {"ports", "b"}, {"port_bandwidth", "b"}, {"load_latency", "b"}}}};
  core::JsonObject cxl_obj(cxl, "bench", "");
  models.memories.emplace("cxl", hw::MemoryPoolModel::from_json(cxl_obj));
  nlohmann::json ocs = {
      {"kind", "optical-circuit-switch"},
      {"name", "ocs"},
      {"ports", 136},
      {"reconfiguration_time", "10ms"},
      {"circuit_bandwidth", "100GB/s"},
      {"latency", "150ns"},
      {"sources",
       {{"ports", "b"}, {"reconfiguration_time", "b"}, {"circuit_bandwidth", "b"}, {"latency", "b"}}}};
  core::JsonObject ocs_obj(ocs, "bench", "");
  models.optical_switches.emplace("ocs", hw::OpticalSwitchModel::from_json(ocs_obj));

  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json topo = topology_for(generator, units);
  core::JsonObject topo_obj(topo, "bench", "");
  topology::Machine machine = topology::build_machine(topo_obj, models);
  double generate_s = seconds_since(t0);
  auto t1 = std::chrono::steady_clock::now();
  engine::SimgridBackend backend(machine);
  double platform_s = seconds_since(t1);
  // One transfer between the first and the last unit: SimGrid computes the route on first use.
  auto t2 = std::chrono::steady_clock::now();
  backend.start_transfer(machine.topology.units().front(), machine.topology.units().back(), core::Bytes(1e6),
                         0);
  backend.run([](engine::SimgridBackend::Token) {});
  double transfer_s = seconds_since(t2);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("| %s | %lld | %zu | %zu | %.2f | %.2f | %.3f | %.2f |\n", generator.c_str(),
              (long long)machine.unit_count(), machine.topology.nodes().size(),
              machine.topology.links().size(), generate_s, platform_s, transfer_s,
              double(usage.ru_maxrss) / (1024.0 * 1024.0));
  return 0;
}
