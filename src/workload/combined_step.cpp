// Combined 1F1B: a forward and a backward pass interleaved at their expert all-to-alls.
#include "workload/combined_step.hpp"

#include <utility>
#include <variant>

namespace zs::workload {
namespace {

bool is_expert_exchange(const Op& op) {
  const auto* c = std::get_if<CollectiveOp>(&op.body);
  return c != nullptr && c->dispatch.has_value();
}

/// Moves the pass's exchanges in ops [from, to) to their stream, with the dependencies the compute
/// stream's order gave them.
void detach_exchanges(std::vector<Op>& ops, uint32_t from, uint32_t to, CombinedStreams streams) {
  constexpr uint32_t kNone = UINT32_MAX;
  uint32_t previous = kNone, exchange = kNone;  // the pass's last compute-stream op, pending exchange
  for (uint32_t i = from; i < to; ++i) {
    if (is_expert_exchange(ops[i])) {
      ops[i].stream = streams.exchange;
      if (previous != kNone) ops[i].deps.push_back(previous);
      exchange = i;
    } else if (ops[i].stream == streams.compute) {
      if (exchange != kNone) ops[i].deps.push_back(exchange);
      exchange = kNone;
      previous = i;
    }
  }
}

/// Ops [from, to) in runs, each ending with an expert exchange (the last run may not).
std::vector<std::vector<uint32_t>> exchange_segments(const std::vector<Op>& ops, uint32_t from, uint32_t to) {
  std::vector<std::vector<uint32_t>> out(1);
  for (uint32_t i = from; i < to; ++i) {
    out.back().push_back(i);
    if (is_expert_exchange(ops[i]) && i + 1 < to) out.emplace_back();
  }
  return out;
}

}  // namespace

std::vector<uint32_t> interleave_at_expert_exchanges(RoleProgram& program, uint32_t start, uint32_t middle,
                                                     CombinedStreams streams) {
  auto& ops = program.ops;
  const auto end = static_cast<uint32_t>(ops.size());
  detach_exchanges(ops, start, middle, streams);
  detach_exchanges(ops, middle, end, streams);
  const std::vector<std::vector<uint32_t>> passes[2] = {exchange_segments(ops, start, middle),
                                                        exchange_segments(ops, middle, end)};
  std::vector<uint32_t> order;  // old indices in their new order
  for (size_t k = 0; order.size() < end - start; ++k)
    for (const auto& segments : passes)
      if (k < segments.size()) order.insert(order.end(), segments[k].begin(), segments[k].end());
  std::vector<uint32_t> new_index(order.size());
  for (uint32_t k = 0; k < order.size(); ++k) new_index[order[k] - start] = start + k;
  auto moved = [&](uint32_t id) { return id < start ? id : new_index[id - start]; };
  std::vector<Op> reordered;
  for (uint32_t old : order) reordered.push_back(std::move(ops[old]));
  for (uint32_t k = 0; k < reordered.size(); ++k) {
    Op& op = ops[start + k] = std::move(reordered[k]);
    for (auto& d : op.deps) d = moved(d);
    if (auto* c = std::get_if<ComputeOp>(&op.body); c && c->scaled_by) c->scaled_by = moved(*c->scaled_by);
  }
  return new_index;
}

}  // namespace zs::workload
