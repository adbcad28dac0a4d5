// Benchmark: time and peak memory to generate a machine and build its SimGrid platform.
// Usage: zs_bench_platform GENERATOR UNITS   (GENERATOR: torus, fat-tree, dragonfly, disaggregated)
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_machines.hpp"
#include "engine/simgrid_backend.hpp"
#include "topology/machine_builder.hpp"

using namespace zs;

namespace {

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
  const topology::ModelSet models = bench::benchmark_models();
  auto t0 = std::chrono::steady_clock::now();
  nlohmann::json topo = bench::topology_for(generator, units);
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
