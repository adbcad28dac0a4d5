// auto's choice across servers against every fixed algorithm, on two rail-optimized machines, sizes from
// 64 KiB to 2 GiB, with and without NCCL's step latencies (96 simulations each): label "slow".
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "core/file_source.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/auto_collective.hpp"
#include "policy/collective/channel_rings_collective.hpp"
#include "policy/collective/double_binary_tree_collective.hpp"
#include "policy/collective/hierarchical_collective.hpp"
#include "policy/collective/recursive_collective.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "scenario/scenario_loader.hpp"
#include "support/collective_trace.hpp"
#include "support/run_cli.hpp"

using namespace zs;
using workload::CollectiveKind;

namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

}  // namespace

TEST_CASE("auto across servers is never more than 5% slower than the best fixed algorithm") {
  // 2 x 8 H100 on HDR-class rails and 4 x 8 B200 on NDR rails: NVLink 18 and 36 times as wide as a NIC.
  for (const char* file :
       {"topologies/hgx-h100-rails-16.machine.json", "topologies/hgx-b200-rails-32.machine.json"}) {
    CAPTURE(file);
    core::DiskFileSource files;
    auto machine = scenario::ScenarioLoader(files).load_machine(test::source_file(file));
    const auto n = static_cast<uint32_t>(machine.topology.units().size());
    for (bool step_latency : {false, true})
      for (double bytes : {64.0 * 1024, 4.0 * 1024 * 1024, 256.0 * 1024 * 1024, 2 * kGiB})
        for (auto kind :
             {CollectiveKind::kAllReduce, CollectiveKind::kReduceScatter, CollectiveKind::kAllGather}) {
          CAPTURE(step_latency);
          CAPTURE(bytes);
          CAPTURE(int(kind));
          machine.step_latency = step_latency;
          auto seconds = [&](const policy::CollectivePolicy& p) {
            return engine::simulate(machine, test::one_collective(kind, n, bytes), policy::LinearPlacement(),
                                    p)
                .replay.iteration_time.value();
          };
          double best =
              std::min({seconds(policy::RingCollective()), seconds(policy::ChannelRingsCollective()),
                        seconds(policy::RecursiveCollective()), seconds(policy::HierarchicalCollective())});
          if (kind == CollectiveKind::kAllReduce)
            best = std::min(best, seconds(policy::DoubleBinaryTreeCollective()));
          CHECK(seconds(policy::AutoCollective()) <= 1.05 * best);
        }
  }
}
