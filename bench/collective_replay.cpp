// Benchmark: replay one all-reduce over every unit of a fat-tree with a collective policy.
// Usage: zs_bench_collective POLICY UNITS [BYTES [FIDELITY]]   (POLICY: ring, recursive, tree, auto; BYTES
// default 1 GiB; FIDELITY exact (default) or collapsed)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_machines.hpp"
#include "engine/simulation.hpp"
#include "policy/placement/linear_placement.hpp"
#include "policy/policy_catalog.hpp"

using namespace zs;

int main(int argc, char** argv) {
  if (argc < 3 || argc > 5) {
    std::fprintf(stderr,
                 "usage: zs_bench_collective ring|recursive|tree|auto UNITS [BYTES [exact|collapsed]]\n");
    return 2;
  }
  const auto fidelity = engine::parse_fidelity(argc == 5 ? argv[4] : "exact");
  if (!fidelity || *fidelity == engine::Fidelity::kAuto) {
    std::fprintf(stderr, "zs_bench_collective: FIDELITY is exact or collapsed\n");
    return 2;
  }
  const std::string algorithm = argv[1];
  const auto units = static_cast<uint32_t>(std::atoll(argv[2]));
  const double bytes = argc >= 4 ? std::atof(argv[3]) : 1024.0 * 1024 * 1024;
  const auto machine = bench::benchmark_machine("fat-tree", units);
  workload::Trace trace;
  trace.name = "all-reduce";
  trace.mesh = workload::Mesh({{"dp", units}});
  trace.streams = {"comm"};
  trace.roles = {
      {"rank",
       {{"all-reduce",
         "gradient-sync",
         0,
         {},
         workload::CollectiveOp{workload::CollectiveKind::kAllReduce, "dp", core::Bytes(bytes)}}}}};
  const auto collective = policy::make_collective_policy(algorithm);
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = engine::simulate(machine, trace, policy::LinearPlacement(), *collective, {}, *fidelity);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double t = r.replay.iteration_time.value(), n = units;
  const double busbw = bytes / t * 2 * (n - 1) / n;
  const double rss_gib = double(usage.ru_maxrss) / (1024.0 * 1024.0);
  if (*fidelity == engine::Fidelity::kCollapsed) {
    std::printf("| %s | %u | %.0f MiB | %llu | %llu | %.4f | %.1f | %.3f | %.2f | %.1f |\n",
                algorithm.c_str(), units, bytes / (1024.0 * 1024),
                (unsigned long long)r.replay.analytic_costs, (unsigned long long)r.replay.routes_computed, t,
                busbw / 1e9, wall, rss_gib, rss_gib * 1024 * 1024 / n);
    return 0;
  }
  std::printf("| %s | %u | %.0f MiB | %llu | %.4f | %.1f | %.2f | %.0f | %.2f | %.1f |\n", algorithm.c_str(),
              units, bytes / (1024.0 * 1024), (unsigned long long)r.replay.transfer_activities, t,
              busbw / 1e9, wall, double(r.replay.transfer_activities) / wall, rss_gib,
              rss_gib * 1024 * 1024 / n);
  return 0;
}
