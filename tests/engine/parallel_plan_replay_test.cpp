// Every kind of parallelism the generator emits replays to completion, and plans that do not fit fail.
#include <doctest/doctest.h>

#include "core/input_error.hpp"
#include "engine/simulation.hpp"
#include "policy/collective/ring_collective.hpp"
#include "policy/placement/linear_placement.hpp"
#include "support/test_machines.hpp"
#include "support/test_models.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/tensor_overlap.hpp"
#include "workload/trace_json.hpp"

using namespace zs;
using workload::Recompute;

namespace {
workload::TransformerSpec moe_model() {
  auto m = test::gpt("moe", 4, 512, 8, 2048, 1000, 256);
  m.moe = workload::MoeSpec{8, 2, 1, 512, 0, 1.25};
  return m;
}

engine::SimulationResult replay(const workload::TransformerSpec& m, const workload::ParallelPlan& p) {
  auto trace = workload::generate_megatron_trace(m, p);
  workload::validate(trace, "plan");
  auto machine = test::single_switch_machine(
      int(trace.mesh.size()), test::unit_model("100TFLOPS", 0.5, "1us"), test::link_model("100GB/s", "1us"));
  return engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
}

workload::ParallelPlan plan(uint32_t dp, uint32_t tp, uint32_t pp) {
  workload::ParallelPlan p;
  p.data_parallel = dp;
  p.tensor_parallel = tp;
  p.pipeline_parallel = pp;
  p.global_batch = dp * 4;
  return p;
}
}  // namespace

TEST_CASE(
    "sequence, context, expert parallelism, ZeRO, recomputation and interleaving replay without deadlock") {
  auto dense = test::gpt("dense", 8, 512, 8, 2048, 1000, 256);
  struct Case {
    const char* what;
    bool moe;
    uint32_t dp, tp, pp, cp, ep, zero, v;
    bool sp;
    Recompute recompute;
  };
  for (const auto& c : {Case{"sp", false, 2, 2, 2, 1, 1, 0, 1, true, Recompute::kNone},
                        Case{"cp", false, 1, 2, 2, 2, 1, 1, 1, false, Recompute::kSelective},
                        Case{"zero3 interleaved", false, 2, 1, 2, 1, 1, 3, 2, false, Recompute::kFull},
                        Case{"zero2", false, 2, 2, 1, 1, 1, 2, 1, true, Recompute::kNone},
                        Case{"moe ep", true, 4, 2, 2, 1, 4, 1, 1, true, Recompute::kNone},
                        Case{"moe ep cp zero3", true, 4, 1, 1, 2, 2, 3, 1, false, Recompute::kFull}}) {
    CAPTURE(c.what);
    auto p = plan(c.dp, c.tp, c.pp);
    p.context_parallel = c.cp;
    p.expert_parallel = c.ep;
    p.zero_stage = c.zero;
    p.sequence_parallel = c.sp;
    p.recompute = c.recompute;
    if (c.v > 1) {
      p.schedule = workload::PipelineSchedule::kInterleaved1F1B;
      p.virtual_stages = c.v;
    }
    auto r = replay(c.moe ? moe_model() : dense, p);
    CHECK(r.replay.iteration_time.value() > 0);
    CHECK(r.replay.ranks.size() == p.ranks());
  }
}

TEST_CASE("expert tensor parallelism replays, its gathers and reduce-scatters adding to the iteration") {
  auto p = plan(4, 2, 2);
  p.expert_parallel = 4;
  p.sequence_parallel = true;
  const auto whole = replay(moe_model(), p);
  p.expert_tensor_parallel = 2;
  const auto split = replay(moe_model(), p);
  CHECK(split.replay.ranks.size() == p.ranks());
  CHECK(split.replay.iteration_time.value() > whole.replay.iteration_time.value());
  // and with Megatron-LM's combined 1F1B, the expert all-to-alls on their own stream
  auto combined = plan(4, 2, 1);
  combined.expert_parallel = 4;
  combined.sequence_parallel = true;
  combined.expert_tensor_parallel = 2;
  combined.overlap_expert_communication = true;
  CHECK(replay(moe_model(), combined).replay.ranks.size() == combined.ranks());
}

TEST_CASE("routing skew slows an expert-parallel iteration, the same seed replays the same") {
  auto p = plan(4, 1, 1);
  p.expert_parallel = 4;
  p.routing.capacity_factor = 0;  // no capacity: the hot expert takes every token routed to it
  auto uniform = replay(moe_model(), p);
  p.routing.distribution = workload::ExpertRoutingModel::Distribution::kZipf;
  p.routing.zipf_exponent = 1.5;
  auto skewed = replay(moe_model(), p);
  auto again = replay(moe_model(), p);
  CHECK(skewed.replay.iteration_time.value() > 1.1 * uniform.replay.iteration_time.value());
  CHECK(again.replay.iteration_time.value() == skewed.replay.iteration_time.value());
  CHECK(skewed.replay.critical_rank == 0);  // rank 0 hosts experts 0 and 1, the hottest
}

TEST_CASE("a plan whose footprint exceeds the unit's HBM is a capacity error naming the role and the parts") {
  auto big = test::gpt("big", 8, 8192, 64, 32768, 50000, 2048);  // 6.9 B parameters: 110 GB of state
  auto p = plan(1, 1, 1);
  try {
    replay(big, p);
    FAIL("no capacity error");
  } catch (const core::InputError& e) {
    const std::string what = e.what();
    CHECK(what.find("/roles/0/memory: capacity: role \"stage0\" needs ") != std::string::npos);
    CHECK(what.find("(weights 12.") != std::string::npos);  // 6.9e9 bf16 weights: 12.9 GiB
    CHECK(what.find("but a \"test-gpu\" (rank 0) has 74.51 GiB") != std::string::npos);  // 80 GB
    // Every quantity in the capacity's unit, so they compare at a glance.
    size_t in_gib = 0;
    for (size_t at = what.find(" GiB"); at != std::string::npos; at = what.find(" GiB", at + 1)) ++in_gib;
    CHECK(in_gib == 7);
    CHECK(what.find("MiB") == std::string::npos);
  }
}

TEST_CASE("a trace written to its file format and read back replays to the same iteration time") {
  auto p = plan(4, 2, 2);
  p.expert_parallel = 2;
  p.sequence_parallel = true;
  p.zero_stage = 2;
  auto trace = workload::generate_megatron_trace(moe_model(), p);
  auto back =
      workload::trace_from_json(nlohmann::json::parse(workload::trace_to_json(trace).dump()), "t.json");
  auto machine = test::single_switch_machine(16, test::unit_model("100TFLOPS", 0.5, "1us"),
                                             test::link_model("100GB/s", "1us"));
  auto a = engine::simulate(machine, trace, policy::LinearPlacement(), policy::RingCollective());
  auto b = engine::simulate(machine, back, policy::LinearPlacement(), policy::RingCollective());
  CHECK(a.replay.iteration_time.value() == b.replay.iteration_time.value());
  CHECK(a.replay.transfer_activities == b.replay.transfer_activities);
}

TEST_CASE("exposed communication by communicator: each within the total, together covering it") {
  auto p = plan(2, 2, 2);
  p.sequence_parallel = true;
  p.expert_parallel = 2;
  auto r = replay(moe_model(), p);
  const auto& crit = r.replay.ranks[r.replay.critical_rank];
  std::vector<std::string> names;
  double sum = 0;
  for (const auto& [name, t] : crit.exposed_by_communicator) {
    names.push_back(name);
    CHECK(t.value() <= crit.exposed_comm.value() + 1e-12);
    sum += t.value();
  }
  CHECK(names == std::vector<std::string>{"dp", "ep", "expert-dp", "gradient-norm", "tp"});
  // Collectives on different communicators overlap only where streams differ, so the parts cover the
  // total at least once.
  CHECK(sum >= crit.exposed_comm.value() - 1e-12);
}

TEST_CASE(
    "hardware FLOPs count recomputation: equal to model FLOPs without it, + the layers' forward with it") {
  auto dense = test::gpt("dense", 8, 512, 8, 2048, 1000, 256);
  auto p = plan(2, 2, 2);
  const auto none = replay(dense, p);
  CHECK(none.hardware_flops.value() == doctest::Approx(none.model_flops.value()).epsilon(1e-12));
  CHECK(none.hfu == doctest::Approx(none.mfu).epsilon(1e-12));
  // Full recomputation runs every layer's forward twice; the logits are not recomputed (PaLM's HFU).
  p.recompute = Recompute::kFull;
  const auto full = replay(dense, p);
  const double sequences = p.global_batch;
  double layers_forward = 0;
  for (uint32_t l = 0; l < dense.layers; ++l)
    layers_forward += dense.layer_forward_flops(l, sequences).value();
  CHECK(full.model_flops.value() == none.model_flops.value());
  CHECK(full.hardware_flops.value() ==
        doctest::Approx(dense.training_flops(sequences).value() + layers_forward).epsilon(1e-12));
  CHECK(full.hfu / full.mfu == doctest::Approx(full.hardware_flops.value() / full.model_flops.value()));
}

TEST_CASE(
    "tensor-parallel communication overlapped with GEMMs: less exposed, never below the compute alone") {
  const auto dense = test::gpt("dense", 4, 2048, 16, 8192, 1000, 1024);
  auto p = plan(1, 4, 1);
  p.sequence_parallel = true;
  const auto blocking = replay(dense, p);
  p.overlap_tensor_communication = true;
  const auto trace = workload::generate_megatron_trace(dense, p);
  REQUIRE(trace.streams.back() == "tp-overlap");
  // Every block's all-gather and reduce-scatter left the compute stream (each has a GEMM beside it).
  size_t moved = 0, exchanges = 0;
  for (const auto& op : trace.roles[0].ops) {
    if (!workload::is_tensor_exchange(op)) continue;
    ++exchanges;
    moved += op.stream == trace.streams.size() - 1 ? 1 : 0;
  }
  // At least 4 micro-batches x 4 layers x 2 passes x (2 blocks x 2 exchanges).
  CHECK(exchanges >= 4 * 4 * 2 * 4);
  CHECK(moved == exchanges);
  const auto overlapped = replay(dense, p);
  const auto& before = blocking.replay.ranks[0];
  const auto& after = overlapped.replay.ranks[0];
  INFO("blocking " << blocking.replay.iteration_time.value() << " s, overlapped "
                   << overlapped.replay.iteration_time.value() << " s");
  CHECK(after.exposed_comm.value() < 0.5 * before.exposed_comm.value());
  CHECK(overlapped.replay.iteration_time.value() < blocking.replay.iteration_time.value());
  // The same work: the iteration is at least the compute it runs, and it saves at most the exposed time.
  CHECK(overlapped.replay.iteration_time.value() >= before.compute.value() * (1 - 1e-9));
  CHECK(overlapped.replay.iteration_time.value() >=
        blocking.replay.iteration_time.value() - before.exposed_comm.value() * (1 + 1e-9));
}
