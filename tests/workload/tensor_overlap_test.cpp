// Tensor-parallel exchanges moved beside the GEMMs they feed or drain, on a hand-built program.
#include <doctest/doctest.h>

#include "workload/tensor_overlap.hpp"

using namespace zs;
using workload::CollectiveKind;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {

workload::Op compute(const std::string& name, core::WorkKind kind) {
  return {name, "", 0, {}, ComputeOp{core::Flops(1e9), core::Bytes(1e6), core::Dtype::kBf16, kind, 1}};
}
workload::Op gemm(const std::string& name) {
  return compute(name, core::WorkKind::kMatrix);
}
workload::Op elementwise(const std::string& name) {
  return compute(name, core::WorkKind::kVector);
}
workload::Op exchange(const std::string& name, CollectiveKind kind, const std::string& comm = "tp") {
  return {name, "", 0, {}, CollectiveOp{kind, comm, core::Bytes(1e6)}};
}

}  // namespace

TEST_CASE("a gather runs beside the GEMM after it, a reduce-scatter beside the GEMM before it") {
  workload::RoleProgram program;
  program.ops = {elementwise("norm"),                                       // 0
                 exchange("attention/ag", CollectiveKind::kAllGather),      // 1
                 gemm("qkv"),                                               // 2
                 elementwise("softmax"),                                    // 3
                 gemm("proj"),                                              // 4
                 elementwise("dropout-add"),                                // 5
                 exchange("attention/rs", CollectiveKind::kReduceScatter),  // 6
                 exchange("ffn/ag", CollectiveKind::kAllGather),            // 7
                 gemm("ffn"),                                               // 8
                 exchange("ffn/rs", CollectiveKind::kReduceScatter),        // 9
                 elementwise("next")};                                      // 10
  workload::overlap_tensor_exchanges(program, {0, 5});
  const auto& ops = program.ops;
  for (uint32_t i : {1u, 6u, 7u, 9u}) {
    CAPTURE(i);
    CHECK(ops[i].stream == 5);
  }
  // The attention gather starts after the norm and runs beside qkv; softmax waits for it.
  CHECK(ops[1].deps == std::vector<uint32_t>{0});
  CHECK(ops[3].deps == std::vector<uint32_t>{1});
  // The attention reduce-scatter runs beside proj and what follows it back to the gather's block
  // (from after softmax); the FFN's GEMM waits for it.
  CHECK(ops[6].deps == std::vector<uint32_t>{3});
  // The FFN gather starts after dropout-add and runs beside the FFN's GEMM.
  CHECK(ops[7].deps == std::vector<uint32_t>{5});
  CHECK(ops[8].deps == std::vector<uint32_t>{6});
  // The FFN reduce-scatter runs beside the same GEMM; the next op waits for both exchanges.
  CHECK(ops[9].deps == std::vector<uint32_t>{5});
  CHECK(ops[10].deps == std::vector<uint32_t>{7, 9});
  // The compute stream keeps its ops and order; nothing else moved.
  for (uint32_t i : {0u, 2u, 3u, 4u, 5u, 8u, 10u}) CHECK(ops[i].stream == 0);
  CHECK(ops[2].deps.empty());
  CHECK(ops[4].deps.empty());
}

TEST_CASE("an exchange with a collective, not a GEMM, beside it stays on the compute stream") {
  workload::RoleProgram program;
  program.ops = {gemm("a"),
                 exchange("dp", CollectiveKind::kAllReduce, "dp"),
                 exchange("tp/ag", CollectiveKind::kAllGather),
                 exchange("loss", CollectiveKind::kAllReduce),
                 gemm("b"),
                 exchange("tp/ag-last", CollectiveKind::kAllGather)};
  workload::overlap_tensor_exchanges(program, {0, 5});
  CHECK(program.ops[2].stream == 0);  // a tp all-reduce comes before the next GEMM
  CHECK(program.ops[5].stream == 0);  // nothing after it
  CHECK(workload::is_tensor_exchange(program.ops[2]));
  CHECK_FALSE(workload::is_tensor_exchange(program.ops[1]));  // data-parallel
  CHECK_FALSE(workload::is_tensor_exchange(program.ops[3]));  // an all-reduce
}
