// Data-parallel communication overlapped with the backward and the next forward (Megatron-LM's
// --overlap-grad-reduce and --overlap-param-gather): where each bucket's collective sits and what waits on
// it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "support/approx.hpp"
#include "support/input_error_of.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"

using namespace zs;
using workload::CollectiveOp;
using workload::ComputeOp;

namespace {

workload::TransformerSpec model() {
  return test::small_gpt();
}

/// ZeRO-1 with bf16 gradients over `dp` replicas of `pp` stages, 4 micro-batches per replica.
workload::ParallelPlan zero1_plan(uint32_t dp, uint32_t pp, uint32_t chunks) {
  workload::ParallelPlan p;
  p.data_parallel = dp;
  p.pipeline_parallel = pp;
  p.global_batch = 4 * dp;
  p.zero_stage = 1;
  p.gradient_dtype = core::Dtype::kBf16;
  if (chunks > 1) {
    p.schedule = workload::PipelineSchedule::kInterleaved1F1B;
    p.virtual_stages = chunks;
  }
  return p;
}

using Ops = std::vector<workload::Op>;

/// The index of the op named `name`, or ops.size().
size_t index_of(const Ops& ops, const std::string& name) {
  const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) { return op.name == name; });
  return static_cast<size_t>(it - ops.begin());
}

/// The last compute op before `before` whose name starts with `prefix`.
uint32_t last_compute_before(const Ops& ops, size_t before, const std::string& prefix) {
  uint32_t last = 0;
  for (uint32_t i = 0; i < before; ++i)
    if (ops[i].name.rfind(prefix, 0) == 0 && std::holds_alternative<ComputeOp>(ops[i].body)) last = i;
  return last;
}

/// Bytes of the collectives whose names end with `suffix`, and how many there are.
std::pair<double, size_t> collective_bytes(const Ops& ops, const std::string& suffix) {
  double bytes = 0;
  size_t count = 0;
  for (const auto& op : ops)
    if (const auto* c = std::get_if<CollectiveOp>(&op.body);
        c && op.name.size() >= suffix.size() && op.name.ends_with(suffix)) {
      bytes += c->bytes.value();
      ++count;
    }
  return {bytes, count};
}

bool depends_on(const workload::Op& op, size_t id) {
  return std::find(op.deps.begin(), op.deps.end(), id) != op.deps.end();
}

}  // namespace

TEST_CASE("overlapped gradient reduction: each layer's gradients reduced as the last backward leaves it") {
  auto p = zero1_plan(4, 1, 1);
  p.overlap_gradient_reduction = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  workload::validate(trace, "overlapped reduction");
  const auto& ops = trace.roles[0].ops;
  const std::string rs = "dp-reduce-scatter-gradients";
  CHECK(index_of(ops, rs) == ops.size());  // nothing left for after the backward
  std::vector<size_t> reductions;
  for (uint32_t l = 0; l < 8; ++l) {
    const std::string layer = "mb3/layer" + std::to_string(l) + "/";
    const size_t id = index_of(ops, layer + rs);
    REQUIRE(id < ops.size());
    // Right after the layer's backward in the last micro-batch, waiting for nothing else.
    REQUIRE(ops[id].deps.size() == 1);
    CHECK(ops[id].deps[0] == last_compute_before(ops, id, layer));
    CHECK(ops[id].deps[0] + 1 == id);
    CHECK(index_of(ops, "mb2/layer" + std::to_string(l) + "/" + rs) == ops.size());
    reductions.push_back(id);
  }
  // Layer 7's backward comes first, layer 0's last; layer 0's bucket carries the embeddings and the output
  // layer (the first chunk's first bucket), the others one layer's weights each.
  CHECK(std::is_sorted(reductions.rbegin(), reductions.rend()));
  const double layer_bytes = model().layer_params(0) * 2;
  CHECK(std::get<CollectiveOp>(ops[reductions[3]].body).bytes.value() == test::approx(layer_bytes));
  CHECK(std::get<CollectiveOp>(ops[reductions[0]].body).bytes.value() ==
        test::approx(model().total_params() * 2 - 7 * layer_bytes));
  // The same bytes as one reduction after the backward; the step's first pass waits for every bucket.
  p.overlap_gradient_reduction = false;
  const auto plain = workload::generate_megatron_trace(model(), p);
  CHECK(collective_bytes(ops, rs).first == test::approx(collective_bytes(plain.roles[0].ops, rs).first));
  CHECK(collective_bytes(ops, rs).first == test::approx(model().total_params() * 2));
  const auto& first_pass = ops[index_of(ops, "optimizer/gradient-norm")];
  for (size_t id : reductions) CHECK(depends_on(first_pass, id));
}

TEST_CASE("overlapped gradient reduction without ZeRO: each layer's gradients all-reduced, the same bytes") {
  auto p = zero1_plan(4, 1, 1);
  p.zero_stage = 0;
  p.overlap_gradient_reduction = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  const auto& ops = trace.roles[0].ops;
  const std::string ar = "dp-all-reduce-gradients";
  CHECK(index_of(ops, ar) == ops.size());
  CHECK(index_of(ops, "mb3/layer5/" + ar) < ops.size());
  CHECK(collective_bytes(ops, ar).second == 8);
  CHECK(collective_bytes(ops, ar).first == test::approx(model().total_params() * 2));
  CHECK(collective_bytes(ops, "dp-all-gather-weights").second == 0);  // no sharded state to gather
}

TEST_CASE("overlapped gradient reduction: a pipeline's later chunks are reduced whole, the first by layer") {
  // 2 stages x 2 chunks of 2 layers: stage 0 holds layers 0-1 (chunk 0) and 4-5 (chunk 1).
  auto p = zero1_plan(2, 2, 2);
  p.overlap_gradient_reduction = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  const auto& ops = trace.roles[0].ops;
  const std::string rs = "dp-reduce-scatter-gradients";
  const double layer_bytes = model().layer_params(0) * 2;
  const size_t chunk1 = index_of(ops, "mb3/chunk1/layer4/" + rs);
  REQUIRE(chunk1 < ops.size());
  CHECK(std::get<CollectiveOp>(ops[chunk1].body).bytes.value() == test::approx(2 * layer_bytes));
  CHECK(index_of(ops, "mb3/chunk1/layer5/" + rs) == ops.size());
  const size_t layer1 = index_of(ops, "mb3/chunk0/layer1/" + rs);
  REQUIRE(layer1 < ops.size());
  CHECK(std::get<CollectiveOp>(ops[layer1].body).bytes.value() == test::approx(layer_bytes));
  CHECK(chunk1 < layer1);  // chunk 1's last backward runs before chunk 0's
  CHECK(collective_bytes(ops, rs).second == 3);
}

TEST_CASE(
    "overlapped parameter gather: each layer's weights gathered at the start, before its first forward") {
  auto p = zero1_plan(4, 1, 1);
  p.overlap_gradient_reduction = true;
  p.overlap_parameter_gather = true;
  const auto trace = workload::generate_megatron_trace(model(), p);
  workload::validate(trace, "overlapped gather");
  const auto& ops = trace.roles[0].ops;
  const std::string ag = "dp-all-gather-weights";
  CHECK(index_of(ops, "optimizer/" + ag) == ops.size());
  for (uint32_t l = 0; l < 8; ++l) {
    const size_t id = index_of(ops, "parameter-gather/layer" + std::to_string(l) + "/" + ag);
    REQUIRE(id == l);  // issued first, in forward order
    CHECK(ops[id].deps.empty());
    // The layer's first op in micro-batch 0 waits for it; micro-batch 1's does not wait again.
    const std::string layer = "/layer" + std::to_string(l) + "/";
    auto first_of = [&](const std::string& mb) {
      const auto it = std::find_if(ops.begin(), ops.end(), [&](const auto& op) {
        return op.name.rfind(mb + layer, 0) == 0 && std::holds_alternative<ComputeOp>(op.body);
      });
      REQUIRE(it != ops.end());
      return *it;
    };
    CHECK(depends_on(first_of("mb0"), id));
    CHECK_FALSE(depends_on(first_of("mb1"), id));
  }
  p.overlap_parameter_gather = false;
  const auto plain = workload::generate_megatron_trace(model(), p);
  CHECK(collective_bytes(ops, ag).first == test::approx(collective_bytes(plain.roles[0].ops, ag).first));
  CHECK(collective_bytes(ops, ag).second == 8);
}

TEST_CASE("data-parallel overlap is refused where Megatron-LM has none") {
  auto error_of = [](const nlohmann::json& j) {
    return test::input_error_of([&] {
      core::ParamReader o(workload::ParallelPlan::params(), core::JsonObject(j, "s.json", "/workload"));
      workload::ParallelPlan::from_params(o, model());
    });
  };
  nlohmann::json j = {{"data_parallel", 2},
                      {"micro_batch", 1},
                      {"global_batch", 8},
                      {"zero_stage", 1},
                      {"overlap_gradient_reduction", true},
                      {"overlap_parameter_gather", true}};
  CHECK(error_of(j) == "(no error)");
  j["overlap_gradient_reduction"] = false;
  CHECK(error_of(j).find(
            "s.json: /workload/overlap_parameter_gather: overlapping the parameter all-gather needs "
            "overlap_gradient_reduction: true, as Megatron-LM's --overlap-param-gather needs "
            "--overlap-grad-reduce") == 0);
  j["overlap_gradient_reduction"] = true;
  j["zero_stage"] = 0;
  CHECK(error_of(j).find("needs zero_stage 1 (Megatron-LM's distributed optimizer), but zero_stage is 0") !=
        std::string::npos);
  j.erase("overlap_parameter_gather");
  CHECK(error_of(j) == "(no error)");  // ZeRO-0: all-reduces overlapped
  j["zero_stage"] = 2;
  CHECK(
      error_of(j).find(
          "s.json: /workload/overlap_gradient_reduction: overlapped gradient reduction applies to zero_stage "
          "0 or 1; zero_stage 2 already reduces gradients after every backward step") == 0);
}
