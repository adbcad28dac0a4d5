// A collective benchmark as nccl-tests runs it: one collective of a given size over every rank, no model.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/param_reader.hpp"
#include "core/units.hpp"
#include "workload/trace.hpp"

namespace zs::workload {

/// One collective of `size` bytes over `ranks` ranks, timed alone (nccl-tests' all_reduce_perf and
/// friends, out of place). Its iteration is that one collective, so the iteration time is the
/// collective's time.
struct CollectiveBenchmark {
  CollectiveKind collective = CollectiveKind::kAllReduce;
  /// nccl-tests' "size": the whole buffer of one rank, B (all-reduce: input = output; all-gather: the
  /// gathered output; reduce-scatter: the input; all-to-all: the send buffer).
  core::Bytes size{0.0};
  uint64_t ranks = 0;

  /// Reads {"collective", "size", "ranks"}; `ranks` left out is `machine_units` (0: no machine, then
  /// `ranks` is needed).
  static CollectiveBenchmark from_params(core::ParamReader& plan, uint64_t machine_units);
  /// The plan's keys (type "workload.collective").
  static const core::ParamTable& params();
  /// What follows from the plan: {"bus_factor": nccl-tests' factor} (the ranks are recorded as read).
  nlohmann::json derived() const;
  /// nccl-tests' bus bandwidth factor (doc/PERFORMANCE.md): all-reduce 2(n-1)/n; reduce-scatter,
  /// all-gather and all-to-all (n-1)/n; broadcast and reduce 1.
  double bus_factor() const;
  /// Bytes each rank holds: the input and the output buffer (out of place), B.
  core::Bytes buffers_per_rank() const;
  /// nccl-tests' algbw = size / t and busbw = algbw x bus_factor(), both B/s, for a collective that
  /// took `seconds`.
  double algorithm_bandwidth(core::Seconds seconds) const { return size.value() / seconds.value(); }
  double bus_bandwidth(core::Seconds seconds) const { return algorithm_bandwidth(seconds) * bus_factor(); }
};

/// One role ("rank"), one stream ("comm"), a one-axis mesh "world" of `b.ranks`, and the collective over
/// it. No model: model FLOPs and tokens are 0.
Trace generate_collective_trace(const CollectiveBenchmark& b);

}  // namespace zs::workload
