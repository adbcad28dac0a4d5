// Tensor-parallel communication overlapped with the GEMMs beside it (Megatron-LM's --tp-comm-overlap).
#include "workload/tensor_overlap.hpp"
#include "workload/mesh_axes.hpp"

#include <optional>
#include <variant>

namespace zs::workload {
namespace {

bool is_matrix(const Op& op) {
  const auto* c = std::get_if<ComputeOp>(&op.body);
  return c != nullptr && c->kind == core::WorkKind::kMatrix && c->flops.value() > 0.0;
}

/// The next (step +1) or previous (step -1) op of the compute stream from `i`, or nullopt.
std::optional<size_t> neighbour(const std::vector<Op>& ops, size_t i, int step, uint32_t compute) {
  for (size_t k = i; step > 0 ? k + 1 < ops.size() : k > 0;) {
    k = step > 0 ? k + 1 : k - 1;
    if (ops[k].stream == compute && !is_tensor_exchange(ops[k])) return k;
  }
  return std::nullopt;
}

/// The nearest matrix op of the compute stream from `i` in direction `step`, passing only non-matrix
/// compute ops; nullopt when a collective or the program's end comes first.
std::optional<size_t> partner_gemm(const std::vector<Op>& ops, size_t i, int step, uint32_t compute) {
  for (auto k = neighbour(ops, i, step, compute); k; k = neighbour(ops, *k, step, compute)) {
    if (is_matrix(ops[*k])) return k;
    if (!std::holds_alternative<ComputeOp>(ops[*k].body)) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

bool is_tensor_exchange(const Op& op) {
  const auto* c = std::get_if<CollectiveOp>(&op.body);
  return c != nullptr && c->communicator == axis_names::kTensor &&
         (c->kind == CollectiveKind::kAllGather || c->kind == CollectiveKind::kReduceScatter);
}

void overlap_tensor_exchanges(RoleProgram& program, TensorOverlapStreams streams) {
  auto& ops = program.ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (!is_tensor_exchange(ops[i]) || ops[i].stream != streams.compute) continue;
    const bool gather = std::get<CollectiveOp>(ops[i].body).kind == CollectiveKind::kAllGather;
    const auto gemm = partner_gemm(ops, i, gather ? +1 : -1, streams.compute);
    if (!gemm) continue;
    // The stretch it overlaps: [i, gemm] for a gather, [gemm, i] for a reduce-scatter.
    const auto before = neighbour(ops, gather ? i : *gemm, -1, streams.compute);
    const auto after = neighbour(ops, gather ? *gemm : i, +1, streams.compute);
    ops[i].stream = streams.overlap;
    if (before) ops[i].deps.push_back(static_cast<uint32_t>(*before));
    if (after) ops[*after].deps.push_back(static_cast<uint32_t>(i));
  }
}

}  // namespace zs::workload
