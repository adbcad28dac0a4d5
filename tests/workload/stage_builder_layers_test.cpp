// A layer's ops in the order the kernels run: context-parallel attention as ring attention runs it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "support/approx.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"

using namespace zs;
using workload::ComputeOp;

namespace {

using Ops = std::vector<workload::Op>;

size_t index_of(const Ops& ops, const std::string& name) {
  const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.name == name; });
  REQUIRE(it != ops.end());
  return static_cast<size_t>(it - ops.begin());
}

double flops(const Ops& ops, const std::string& name) {
  return std::get<ComputeOp>(ops[index_of(ops, name)].body).flops.value();
}

}  // namespace

TEST_CASE("context-parallel attention: keys and values exchanged between the projections and the core") {
  // tp 2 x cp 2 with sequence parallelism and tensor-parallel overlap, one micro-batch per replica.
  const auto model = test::gpt("cp", 2, 512, 8, 2048, 1000, 256);
  workload::ParallelPlan p;
  p.tensor_parallel = 2;
  p.context_parallel = 2;
  p.sequence_parallel = true;
  p.overlap_tensor_communication = true;
  p.global_batch = 1;
  const auto trace = workload::generate_megatron_trace(model, p);
  workload::validate(trace, "cp attention");
  const auto& ops = trace.roles[0].ops;
  const std::string at = "mb0/layer0/attention/";
  // Forward: the query/key/value projections, the gather of keys and values, the core, the output
  // projection (Transformer Engine's ring attention exchanges what the projections produce).
  const size_t qkv = index_of(ops, at + "qkv-forward"), gather = index_of(ops, at + "cp-all-gather-kv");
  const size_t core = index_of(ops, at + "core-forward"), out = index_of(ops, at + "output-forward");
  CHECK(qkv < gather);
  CHECK(gather < core);
  CHECK(core < out);
  // Backward: the output projection, the gather, the core, the gradients' reduce-scatter, the projections.
  const size_t out_b = index_of(ops, at + "output-backward"), core_b = index_of(ops, at + "core-backward");
  const size_t rs_b = index_of(ops, at + "cp-reduce-scatter-kv-gradients");
  const size_t qkv_b = index_of(ops, at + "qkv-backward");
  CHECK(out_b < core_b);
  CHECK(core_b < rs_b);
  CHECK(rs_b < qkv_b);
  // The tensor-parallel exchanges of attention pair with its projections and leave the compute stream.
  const uint32_t compute_stream = ops[qkv].stream;
  for (const char* exchange : {"tp-all-gather", "tp-reduce-scatter"}) {
    CAPTURE(exchange);
    size_t moved = 0, total = 0;
    for (const auto& op : ops)
      if (op.name.find(std::string("attention/") + exchange) != std::string::npos) {
        ++total;
        moved += op.stream != compute_stream;
      }
    CHECK(total == 4);  // each of the 2 layers, forward and backward
    CHECK(moved == total);
  }
  // The same FLOPs as one attention op: the projections by their weights, the core apart.
  const double h = 512, tokens = 256.0 / 2;
  const double core_flops = model.attention_score_flops(1).value() / 4;
  const double projections = model.attention_forward_flops_per_rank(1, 2).value() / 2 - core_flops;
  CHECK(flops(ops, at + "core-forward") == test::approx(core_flops));
  CHECK(flops(ops, at + "qkv-forward") + flops(ops, at + "output-forward") == test::approx(projections));
  CHECK(flops(ops, at + "output-forward") == test::approx(2 * tokens * h * (h / 2)));
  CHECK(flops(ops, at + "qkv-backward") == test::approx(2 * flops(ops, at + "qkv-forward")));
}
