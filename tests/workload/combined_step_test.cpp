// Combined 1F1B's interleaving of two passes at their expert all-to-alls, on a hand-built program.
#include <doctest/doctest.h>

#include "workload/combined_step.hpp"

using namespace zs;
using workload::CollectiveKind;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {

workload::Op compute(const std::string& name, std::optional<uint32_t> scaled_by = std::nullopt) {
  ComputeOp c{core::Flops(1e9), core::Bytes(0), core::Dtype::kBf16, core::WorkKind::kMatrix, 1};
  c.scaled_by = scaled_by;
  return {name, "", 0, {}, c};
}

workload::Op exchange(const std::string& name) {
  CollectiveOp c{CollectiveKind::kAllToAll, "ep", core::Bytes(1e6)};
  c.dispatch = workload::ExpertDispatch{};
  return {name, "", 0, {}, c};
}

}  // namespace

TEST_CASE(
    "two passes alternate at their exchanges, which move to their stream with the order's dependencies") {
  workload::RoleProgram program;
  program.ops = {compute("before"),
                 // the forward: 1..4
                 compute("f-router"), exchange("f-dispatch"), compute("f-experts", 2), compute("f-rest"),
                 // the backward: 5..7
                 compute("b-attention"), exchange("b-dispatch"), compute("b-experts", 6)};
  const auto moved = workload::interleave_at_expert_exchanges(program, 1, 5, {0, 4});
  std::vector<std::string> names;
  for (const auto& op : program.ops) names.push_back(op.name);
  CHECK(names == std::vector<std::string>{"before", "f-router", "f-dispatch", "b-attention", "b-dispatch",
                                          "f-experts", "f-rest", "b-experts"});
  CHECK(moved == std::vector<uint32_t>{1, 2, 5, 6, 3, 4, 7});
  const auto& ops = program.ops;
  CHECK(ops[2].stream == 4);  // f-dispatch
  CHECK(ops[2].deps == std::vector<uint32_t>{1});
  CHECK(ops[4].stream == 4);  // b-dispatch
  CHECK(ops[4].deps == std::vector<uint32_t>{3});
  CHECK(ops[5].deps == std::vector<uint32_t>{2});  // f-experts waits for its dispatch, no longer in order
  CHECK(std::get<ComputeOp>(ops[5].body).scaled_by == 2u);
  CHECK(ops[7].deps == std::vector<uint32_t>{4});
  CHECK(std::get<ComputeOp>(ops[7].body).scaled_by == 4u);
  CHECK(ops[6].deps.empty());  // f-rest follows f-experts on the compute stream, as before
  for (const auto& op : ops)
    if (op.stream == 0) CHECK(std::holds_alternative<ComputeOp>(op.body));
}
