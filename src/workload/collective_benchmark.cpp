// The collective benchmark workload: its plan keys, nccl-tests' bus factors, and its one-op trace.
#include "workload/collective_benchmark.hpp"

#include <string>

namespace zs::workload {
namespace {

constexpr const char* kWorld = "world";

/// The collectives in CollectiveKind's order, as files write them.
const std::vector<std::string>& collective_names() {
  static const std::vector<std::string> names = {"all-reduce", "reduce-scatter", "all-gather",
                                                 "all-to-all", "broadcast",      "reduce"};
  return names;
}

}  // namespace

const core::ParamTable& CollectiveBenchmark::params() {
  using core::Param;
  static const core::ParamTable table(
      "workload.collective",
      "one collective over every rank, timed alone as nccl-tests does (no model: the workload section has no "
      "\"model\")",
      {Param::choice("collective", collective_names(), "the collective").noun("collective"),
       Param::bytes("size", "nccl-tests' size: the whole buffer of one rank (all-gather: its output)"),
       Param::integer("ranks", 2, int64_t(1) << 22, "ranks taking part; left out, every unit of the machine")
           .optional()});
  return table;
}

CollectiveBenchmark CollectiveBenchmark::from_params(core::ParamReader& plan, uint64_t machine_units) {
  CollectiveBenchmark b;
  const std::string name = plan.get<std::string>("collective");
  for (size_t i = 0; i < collective_names().size(); ++i)
    if (collective_names()[i] == name) b.collective = static_cast<CollectiveKind>(i);
  b.size = plan.get<core::Bytes>("size");
  const auto ranks = plan.find<int64_t>("ranks");
  if (!ranks && machine_units == 0) throw plan.error("ranks", "give the ranks: there is no machine to count");
  b.ranks = ranks ? static_cast<uint64_t>(*ranks) : machine_units;
  if (b.ranks < 2) throw plan.error("ranks", "a collective needs at least 2 ranks; the machine has 1 unit");
  plan.record("ranks", b.ranks);
  return b;
}

nlohmann::json CollectiveBenchmark::derived() const {
  return {{"bus_factor", bus_factor()}};
}

double CollectiveBenchmark::bus_factor() const {
  const double n = double(ranks);
  switch (collective) {
    case CollectiveKind::kAllReduce:
      return 2.0 * (n - 1) / n;
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllGather:
    case CollectiveKind::kAllToAll:
      return (n - 1) / n;
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kReduce:
      return 1.0;
  }
  return 1.0;
}

core::Bytes CollectiveBenchmark::buffers_per_rank() const {
  const double n = double(ranks);
  switch (collective) {
    case CollectiveKind::kAllGather:      // a 1/n input, the whole output
    case CollectiveKind::kReduceScatter:  // the whole input, a 1/n output
      return size + size / n;
    default:
      return size * 2.0;
  }
}

Trace generate_collective_trace(const CollectiveBenchmark& b) {
  Trace t;
  t.name = std::string(to_string(b.collective)) + "-" + std::to_string(b.ranks);
  t.mesh = Mesh({{kWorld, static_cast<uint32_t>(b.ranks)}});
  t.streams = {"comm"};
  t.model_flops = core::Flops(0.0);
  RoleProgram rank{"rank", {}};
  rank.ops.push_back({std::string(to_string(b.collective)),
                      "collective",
                      0,
                      {},
                      CollectiveOp{b.collective, kWorld, b.size}});
  MemoryFootprint memory;
  memory.buffers = b.buffers_per_rank();
  rank.memory = memory;
  t.roles.push_back(std::move(rank));
  return t;
}

}  // namespace zs::workload
