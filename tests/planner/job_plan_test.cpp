// The planner decides with the simulator's own policy code: the same rank order, the same collective
// choices and (on that placement) the same iteration time; its checkpoint and Megatron decisions from their
// closed forms; and one error line for a job it cannot lay out.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/file_source.hpp"
#include "planner/job_plan.hpp"
#include "planner/plan_folder.hpp"
#include "policy/recovery/checkpoint_policy.hpp"
#include "scenario/scenario_loader.hpp"
#include "study/scenario_simulation.hpp"
#include "support/input_error_of.hpp"
#include "support/test_models.hpp"

using namespace zs;

namespace {

const std::string kScenario = ZS_SOURCE_DIR "/scenarios/planner/gpt3-1.3b-hgx-h100-4node.json";

/// The shipped planner scenario with `change` applied to its JSON.
template <class Change>
scenario::Scenario load(Change change) {
  core::DiskFileSource disk;
  nlohmann::json doc = nlohmann::json::parse(*disk.read(kScenario));
  change(doc);
  core::OverlayFileSource files(disk, {{kScenario, doc.dump()}});
  auto s = scenario::ScenarioLoader(files).load(kScenario);
  planner::make_nccl_job(s);  // as zettasim plan does
  return s;
}

scenario::Scenario shipped() {
  return load([](nlohmann::json&) {});
}

std::string flag_value(const planner::JobPlan& plan, const std::string& flag) {
  for (const auto& [f, v] : plan.megatron)
    if (f == flag) return v.empty() ? "(set)" : v;
  return "(absent)";
}

}  // namespace

TEST_CASE("zettasim plan and zettasim run: the same rank order, collective choices and iteration time") {
  const auto s = shipped();
  const auto plan = planner::make_job_plan(s, {});
  const auto engine_placement = study::placement_policy_of(s)->place({s.trace, s.machine, s.seed});
  CHECK(plan.placement.unit_of_rank == engine_placement.unit_of_rank);
  const auto run = study::simulate_scenario(s);
  std::set<std::string> planned;
  for (const auto& c : plan.collectives) planned.insert(c.algorithm);
  CHECK(planned == std::set<std::string>(run.replay.collective_algorithms.begin(),
                                         run.replay.collective_algorithms.end()));
  CHECK(study::simulate_scenario(s, plan.placement).replay.iteration_time == run.replay.iteration_time);
}

TEST_CASE("ranks on the usable hosts in tree order, the drained node left out") {
  const auto plan = planner::make_job_plan(shipped(), {});
  REQUIRE(plan.ranks.size() == 24);
  CHECK(plan.hosts == std::vector<std::string>{"gpu001", "gpu002", "gpu004"});
  CHECK(plan.gpus_per_host == 8);
  CHECK(plan.ranks[0].host == "gpu001");
  CHECK(plan.ranks[23].host == "gpu004");
  CHECK(plan.ranks[23].gpu == 7);
  REQUIRE(plan.axes.size() == 3);
  for (size_t a = 0; a < plan.axes.size(); ++a) {
    CAPTURE(plan.axes[a]);
    CHECK(plan.ranks[9].coordinates[a] == (plan.axes[a] == "pp" ? 0u : 1u));  // rank 9 = dp 1 x tp 8 + tp 1
  }
  REQUIRE(plan.left_out.size() == 1);
  CHECK(plan.left_out[0].at("name") == "gpu003");
  CHECK(planner::torchrun_reproduces(plan));
  CHECK(planner::hostfile_text(plan).substr(0, 14) == "gpu001\ngpu001\n");
}

TEST_CASE("Megatron-LM arguments: the plan's sizes, every flag one that arguments.py defines") {
  const auto plan = planner::make_job_plan(shipped(), {});
  const auto& names = workload::megatron_argument_names();
  auto check_known_flags = [&](const planner::JobPlan& job) {
    for (const auto& argument : job.megatron) {
      const std::string& flag = argument.first;  // clang 14 cannot capture a structured binding
      CAPTURE(flag);
      CHECK(std::find(names.begin(), names.end(), flag) != names.end());
    }
  };
  check_known_flags(plan);
  CHECK(flag_value(plan, "--tensor-model-parallel-size") == "8");
  CHECK(flag_value(plan, "--pipeline-model-parallel-size") == "1");
  CHECK(flag_value(plan, "--sequence-parallel") == "(set)");
  CHECK(flag_value(plan, "--use-distributed-optimizer") == "(set)");
  CHECK(flag_value(plan, "--micro-batch-size") == "4");
  CHECK(flag_value(plan, "--global-batch-size") == "96");
  CHECK(flag_value(plan, "--num-layers") == "24");
  CHECK(flag_value(plan, "--hidden-size") == "2048");
  CHECK(flag_value(plan, "--save-interval") == "(absent)");  // no iteration time yet
  // Mixtral 8x7B, tp 2 x pp 4 with two chunks per stage and full recomputation, with `workload` keys
  // on top; bf16 gradients: fp32 ones (6 + 12/d B per parameter) do not fit.
  auto mixtral_plan = [](const nlohmann::json& workload) {
    return planner::make_job_plan(load([&](nlohmann::json& d) {
                                    d["workload"]["model"] = "../../workloads/mixtral-8x7b.json";
                                    d["workload"]["tensor_parallel"] = 2;
                                    d["workload"]["pipeline_parallel"] = 4;
                                    d["workload"]["recompute"] = "full";
                                    d["workload"]["micro_batch"] = 1;
                                    d["workload"]["virtual_stages"] = 2;
                                    d["workload"]["schedule"] = "interleaved-1f1b";
                                    d["workload"]["gradient_dtype"] = "bf16";
                                    d["workload"].update(workload);
                                    d.erase("reliability");
                                  }),
                                  {});
  };
  const auto moe = mixtral_plan({{"data_parallel", 3}, {"global_batch", 24}, {"gradient_clipping", false}});
  CHECK(flag_value(moe, "--num-experts") == "8");
  // always written for MoE: left out, Megatron-LM would split the experts over tensor_parallel
  CHECK(flag_value(moe, "--expert-tensor-parallel-size") == "1");
  CHECK(flag_value(plan, "--expert-tensor-parallel-size") == "(absent)");  // a dense model
  CHECK(flag_value(moe, "--moe-router-topk") == "2");
  CHECK(flag_value(moe, "--num-query-groups") == "8");
  CHECK(flag_value(moe, "--num-layers-per-virtual-pipeline-stage") == "4");  // 32 layers / (4 x 2)
  CHECK(flag_value(moe, "--recompute-granularity") == "full");
  CHECK(flag_value(moe, "--swiglu") == "(set)");
  CHECK(flag_value(moe, "--normalization") == "RMSNorm");
  CHECK(flag_value(moe, "--attention-dropout") == "0.0");  // Mixtral trains without dropout
  CHECK(flag_value(moe, "--hidden-dropout") == "0.0");
  CHECK(flag_value(moe, "--grad-reduce-in-bf16") == "(set)");
  CHECK(flag_value(plan, "--grad-reduce-in-bf16") == "(absent)");  // fp32: Megatron-LM's own choice
  CHECK(flag_value(moe, "--clip-grad") == "0.0");                  // clipping off
  CHECK(flag_value(plan, "--clip-grad") == "(absent)");            // Megatron-LM's default, 1.0
  CHECK(flag_value(plan, "--fp8-format") == "(absent)");
  check_known_flags(moe);
  const auto overlapped = mixtral_plan({{"data_parallel", 2},
                                        {"expert_parallel", 2},
                                        {"global_batch", 16},
                                        {"overlap_expert_communication", true}});
  CHECK(flag_value(overlapped, "--overlap-moe-expert-parallel-comm") == "(set)");
  CHECK(flag_value(mixtral_plan({{"data_parallel", 3}, {"global_batch", 24}, {"expert_tensor_parallel", 2}}),
                   "--expert-tensor-parallel-size") == "2");
  CHECK(flag_value(moe, "--overlap-moe-expert-parallel-comm") == "(absent)");
  check_known_flags(overlapped);
  const auto tp_overlapped =
      mixtral_plan({{"data_parallel", 3}, {"global_batch", 24}, {"overlap_tensor_communication", true}});
  CHECK(flag_value(tp_overlapped, "--tp-comm-overlap") == "(set)");
  const auto dp_overlapped = mixtral_plan({{"data_parallel", 3},
                                           {"global_batch", 24},
                                           {"zero_stage", 1},
                                           {"overlap_gradient_reduction", true},
                                           {"overlap_parameter_gather", true}});
  CHECK(flag_value(dp_overlapped, "--overlap-grad-reduce") == "(set)");
  CHECK(flag_value(dp_overlapped, "--overlap-param-gather") == "(set)");
  CHECK(flag_value(tp_overlapped, "--overlap-grad-reduce") == "(absent)");
  check_known_flags(dp_overlapped);
  const auto batched =
      mixtral_plan({{"data_parallel", 3}, {"global_batch", 24}, {"batched_exchanges", true}});
  CHECK(std::find(batched.unmapped.begin(), batched.unmapped.end(),
                  "plan.batched_exchanges (Megatron-LM 2021's pipeline exchanges)") !=
        batched.unmapped.end());
  CHECK(std::find(moe.unmapped.begin(), moe.unmapped.end(),
                  "plan.batched_exchanges (Megatron-LM 2021's pipeline exchanges)") == moe.unmapped.end());
  // Megatron-LM overlaps an interleaved schedule's exchanges: a plan that posts its receives just before
  // their steps says so, one that overlaps them (its flag's default) does not.
  const std::string posted_late =
      "plan.overlap_pipeline_exchanges false (Megatron-LM overlaps an interleaved schedule's pipeline "
      "exchanges)";
  CHECK(std::count(moe.unmapped.begin(), moe.unmapped.end(), posted_late) == 1);
  const auto overlapped_exchanges = mixtral_plan({{"overlap_pipeline_exchanges", true}});
  CHECK(std::count(overlapped_exchanges.unmapped.begin(), overlapped_exchanges.unmapped.end(), posted_late) ==
        0);
  CHECK(flag_value(overlapped_exchanges, "--no-overlap-p2p-communication") == "(absent)");
  CHECK(std::count(batched.unmapped.begin(), batched.unmapped.end(), posted_late) == 0);
  CHECK(flag_value(moe, "--tp-comm-overlap") == "(absent)");
  check_known_flags(tp_overlapped);
  for (const char* recipe : {"transformer-engine", "deepseek-v3"}) {
    CAPTURE(recipe);
    const auto fp8 =
        planner::make_job_plan(load([&](nlohmann::json& d) { d["workload"]["fp8"] = recipe; }), {});
    check_known_flags(fp8);
    const bool deepseek = std::string(recipe) == "deepseek-v3";
    CHECK(flag_value(fp8, "--fp8-format") == (deepseek ? "e4m3" : "hybrid"));
    CHECK(flag_value(fp8, "--fp8-recipe") == (deepseek ? "blockwise" : "(absent)"));
    CHECK(flag_value(fp8, "--exp-avg-dtype") == (deepseek ? "bf16" : "(absent)"));
    CHECK(flag_value(fp8, "--exp-avg-sq-dtype") == (deepseek ? "bf16" : "(absent)"));
    const std::string no_amax =
        "plan.fp8_amax_reduction false (Transformer Engine's delayed scaling reduces every chunk's amaxes)";
    CHECK(std::count(fp8.unmapped.begin(), fp8.unmapped.end(), no_amax) == (deepseek ? 0 : 1));
  }
  const auto reduced = planner::make_job_plan(load([&](nlohmann::json& d) {
                                                d["workload"]["fp8"] = "transformer-engine";
                                                d["workload"]["fp8_amax_reduction"] = true;
                                              }),
                                              {});
  for (const auto& u : reduced.unmapped) CHECK(u.find("fp8") == std::string::npos);
}

TEST_CASE(
    "uneven stages become Megatron-LM's first and last stage layer counts, or are said to be unmapped") {
  auto uneven = [&](nlohmann::json layers) {
    return planner::make_job_plan(load([&](nlohmann::json& d) {
                                    d["workload"]["model"] = "../../workloads/mixtral-8x7b.json";
                                    d["workload"]["tensor_parallel"] = 2;
                                    d["workload"]["pipeline_parallel"] = 4;
                                    d["workload"]["data_parallel"] = 3;
                                    d["workload"]["global_batch"] = 24;
                                    d["workload"]["micro_batch"] = 1;
                                    d["workload"]["recompute"] = "full";
                                    d["workload"]["layers_per_stage"] = layers;
                                    d["workload"]["gradient_dtype"] = "bf16";
                                    d.erase("reliability");
                                  }),
                                  {});
  };
  const auto ends = uneven({7, 9, 9, 7});
  CHECK(flag_value(ends, "--decoder-first-pipeline-num-layers") == "7");
  CHECK(flag_value(ends, "--decoder-last-pipeline-num-layers") == "7");
  auto says_unmapped = [](const planner::JobPlan& plan) {
    return std::count_if(plan.unmapped.begin(), plan.unmapped.end(), [](const std::string& u) {
      return u.rfind("plan.layers_per_stage [8,9,7,8] (", 0) == 0;
    });
  };
  CHECK(says_unmapped(ends) == 0);
  const auto other = uneven({8, 9, 7, 8});
  CHECK(flag_value(other, "--decoder-first-pipeline-num-layers") == "(absent)");
  CHECK(says_unmapped(other) == 1);
}

TEST_CASE("the checkpoint interval is Daly's from the job's MTBF and the store's write time") {
  const auto s = shipped();
  auto plan = planner::make_job_plan(s, {});
  REQUIRE(plan.checkpoint);
  const auto& c = *plan.checkpoint;
  // A distributed checkpoint writes each tensor once, not once per data-parallel replica (tp 8 x dp 3).
  CHECK(test::megatron_gpt_parameters(24, 2048, 51200, 2048) == 1317654528.0);
  const double state = test::gpt3_1_3b_checkpoint_bytes();
  CHECK(c.state == doctest::Approx(state).epsilon(1e-12));
  const auto size = s.trace.checkpoint_size();
  REQUIRE(size);
  CHECK(size->per_rank_max.value() ==
        doctest::Approx(state / 24).epsilon(1e-12));  // 24 ranks, one share each
  CHECK(c.cost == doctest::Approx(state / 20e9));     // "bandwidth": "20GB/s"
  CHECK(c.interval == doctest::Approx(policy::daly_interval(c.mtbf, c.cost)));
  planner::apply_iteration_time(plan, 0.25, *s.megatron);
  CHECK(plan.save_interval == std::llround(c.interval / 0.25));
  CHECK(flag_value(plan, "--save-interval") == std::to_string(plan.save_interval));
}

TEST_CASE("the NCCL environment follows the collective policy") {
  const auto ring =
      planner::make_job_plan(load([](nlohmann::json& d) { d["policies"]["collective"] = "ring"; }), {});
  REQUIRE(!ring.nccl_environment.empty());
  CHECK(ring.nccl_environment[0] == std::pair<std::string, std::string>{"NCCL_ALGO", "Ring"});
  const auto nvls =
      planner::make_job_plan(load([](nlohmann::json& d) { d["policies"]["collective"] = "in-network"; }), {});
  CHECK(nvls.nccl_environment[0] == std::pair<std::string, std::string>{"NCCL_ALGO", "NVLS,Ring"});
  CHECK(nvls.nccl_environment[1] == std::pair<std::string, std::string>{"NCCL_NVLS_ENABLE", "1"});
}

TEST_CASE("the planner's choices are NCCL's: each policy names its NCCL algorithm, others are refused") {
  const auto rings =
      planner::make_job_plan(load([](nlohmann::json& d) { d["policies"]["collective"] = "rings"; }), {});
  REQUIRE(!rings.nccl_environment.empty());
  CHECK(rings.nccl_environment[0] == std::pair<std::string, std::string>{"NCCL_ALGO", "Ring"});
  const std::string refused = test::input_error_of(
      [] { planner::make_job_plan(load([](nlohmann::json& d) { d["policies"]["collective"] = "recursive"; }), {}); });
  CHECK(refused.find("/policies/collective: collective policy \"recursive\" runs ") != std::string::npos);
  CHECK(refused.find("which NCCL does not implement: zettasim plan lays out NCCL jobs") != std::string::npos);
  // The alternatives are the catalog's policies that say they run it as one of NCCL's algorithms.
  CHECK(refused.find("NCCL's algorithms are run by ring (Ring), ") != std::string::npos);
  CHECK(refused.find("rings (Ring)") != std::string::npos);
  CHECK(refused.find("recursive (") == std::string::npos);
  // The NCCL job charges NCCL's latencies, and its resolved configuration says what it is.
  const auto s = shipped();
  CHECK(s.machine.step_latency);
  CHECK(s.collective_options.algorithms == policy::AlgorithmSet::kNccl);
  CHECK(s.resolved.at("policies").at("collective").at("algorithms") == "nccl");
  for (const auto& c : planner::make_job_plan(s, {}).collectives) CHECK_FALSE(c.nccl.empty());
}

TEST_CASE("a scattered placement is not torchrun's numbering: one srun task per rank with its GPU") {
  const auto plan =
      planner::make_job_plan(load([](nlohmann::json& d) { d["policies"]["placement"] = "random"; }), {});
  CHECK_FALSE(planner::torchrun_reproduces(plan));
  const std::string script = planner::launch_script(plan);
  CHECK(script.find("--distribution=arbitrary") != std::string::npos);
  CHECK(script.find("GPU_OF_RANK=(") != std::string::npos);
  CHECK(script.find("torchrun --nnodes") == std::string::npos);
}

TEST_CASE("a job the healthy GPUs cannot hold, spares that are not there, a job that is not Megatron's") {
  const std::string too_big =
      test::input_error_of([] { load([](nlohmann::json& d) { d["workload"]["data_parallel"] = 4; }); });
  CHECK(too_big == kScenario +
                       ": /workload: the job needs 32 units but machine \"hgx-h100-4node\" has 24 usable (1 "
                       "nodes of the inventory are left out: drained, down or without GPUs)");
  planner::PlanOptions spares;
  spares.spare_nodes = 1;
  const auto s = shipped();
  CHECK(test::input_error_of([&] { planner::make_job_plan(s, spares); }) ==
        kScenario + ": the job leaves 0 usable nodes idle, 1 spare nodes were asked for (--spare-nodes)");
  const auto dp = load([](nlohmann::json& d) {
    d["workload"] = {{"generator", "ideal-data-parallel"},
                     {"model", "../../workloads/gpt3-1.3b.json"},
                     {"data_parallel", 8},
                     {"micro_batch", 1},
                     {"global_batch", 8}};
  });
  CHECK(test::input_error_of([&] { planner::make_job_plan(dp, {}); }) ==
        kScenario +
            ": /workload/generator: zettasim plan lays out Megatron-LM jobs: expected the \"megatron\" "
            "generator");
}

TEST_CASE("spare nodes come from the idle usable hosts and join the allocation, not the hostfile") {
  const auto s = load([](nlohmann::json& d) {
    d["workload"]["data_parallel"] = 2;
    d["workload"]["global_batch"] = 64;
  });
  planner::PlanOptions options;
  options.spare_nodes = 1;
  const auto plan = planner::make_job_plan(s, options);
  CHECK(plan.hosts == std::vector<std::string>{"gpu001", "gpu002"});
  CHECK(plan.spare_hosts == std::vector<std::string>{"gpu004"});
  const std::string script = planner::launch_script(plan);
  CHECK(script.find("#SBATCH --nodelist=gpu[001-002,004]\n") != std::string::npos);
  CHECK(script.find("#SBATCH --nodes=3\n") != std::string::npos);
  CHECK(planner::hostfile_text(plan).find("gpu004") == std::string::npos);
}

TEST_CASE(
    "the README's example: Llama 3 405B on the llama3-24k inventory, drained nodes skipped, spares held") {
  core::DiskFileSource files;
  auto s = scenario::ScenarioLoader(files).load(ZS_SOURCE_DIR "/scenarios/planner/llama3-405b-llama3-24k.json");
  planner::make_nccl_job(s);
  CHECK(s.machine.unit_count() == (3072 - 64) * 8);
  const auto plan = planner::make_job_plan(s, {});
  // An NCCL job's choices are NCCL's algorithms (auto weighs no recursive or binomial schedule).
  for (const auto& c : plan.collectives) {
    CAPTURE(c.communicator);
    CAPTURE(c.algorithm);
    CHECK((c.nccl == "Ring" || c.nccl == "Tree" || c.nccl == "NVLS" || c.nccl == "CollNet"));
  }
  REQUIRE(plan.ranks.size() == 14336);
  CHECK(plan.hosts.size() == 1792);
  CHECK(plan.left_out.size() == 64);
  const std::string hostfile = planner::hostfile_text(plan);
  std::string first_nine;
  for (int i = 0; i < 8; ++i) first_nine += "gpu0001\n";
  first_nine += "gpu0002\n";
  CHECK(hostfile.substr(0, first_nine.size()) == first_nine);
  CHECK(hostfile.find("gpu0025\n") == std::string::npos);  // drained
  CHECK(plan.spare_hosts.size() == 16);                    // 128 spare units of the reliability section
  CHECK(plan.spare_hosts.front() == "gpu3057");
  REQUIRE(plan.checkpoint);
  // The Llama 3 failure table over 14,336 GPUs: 419 interruptions in 54 days on 16,384 GPUs scale to 3.5 h.
  CHECK(plan.checkpoint->mtbf / 3600 == doctest::Approx(54.0 * 24 / 419 * 16384 / 14336).epsilon(0.05));
}

TEST_CASE(
    "a model with parallel attention and FFN blocks is said to be unmapped: Megatron-LM runs them in turn") {
  core::DiskFileSource disk;
  const std::string model_file = ZS_SOURCE_DIR "/workloads/gpt3-1.3b-parallel-blocks.json";
  nlohmann::json model = nlohmann::json::parse(*disk.read(ZS_SOURCE_DIR "/workloads/gpt3-1.3b.json"));
  model["parallel_blocks"] = true;
  nlohmann::json doc = nlohmann::json::parse(*disk.read(kScenario));
  doc["workload"]["model"] = model_file;
  core::OverlayFileSource files(disk, {{kScenario, doc.dump()}, {model_file, model.dump()}});
  const auto plan = planner::make_job_plan(scenario::ScenarioLoader(files).load(kScenario), {});
  CHECK(std::count(plan.unmapped.begin(), plan.unmapped.end(),
                   "model.parallel_blocks (Megatron-LM runs attention and MLP one after the other)") == 1);
  const auto sequential = planner::make_job_plan(shipped(), {});
  CHECK(std::none_of(sequential.unmapped.begin(), sequential.unmapped.end(),
                     [](const std::string& u) { return u.rfind("model.parallel_blocks", 0) == 0; }));
}

TEST_CASE(
    "a job given as its Megatron-LM arguments plans the arguments, ranks and NCCL choices of its keys") {
  auto given_as = [](const std::string& arguments, const nlohmann::json& keys) {
    return load([&](nlohmann::json& d) {
      d["workload"] = {{"generator", "megatron"},
                       {"model", "../../workloads/gpt3-1.3b.json"},
                       {"data_parallel", 3},
                       {"megatron_arguments", arguments}};
      d["workload"].update(keys);
    });
  };
  const std::string arguments =
      "--tensor-model-parallel-size 8 --sequence-parallel --micro-batch-size 4 --global-batch-size 96 "
      "--use-distributed-optimizer --num-layers 24 --hidden-size 2048 --num-attention-heads 16 --bf16";
  const auto keys = planner::make_job_plan(shipped(), {});
  const auto args = planner::make_job_plan(given_as(arguments, nlohmann::json::object()), {});
  CHECK(args.megatron == keys.megatron);
  CHECK(args.unmapped == keys.unmapped);
  CHECK(planner::ranks_json(args) == planner::ranks_json(keys));
  REQUIRE(args.collectives.size() == keys.collectives.size());
  for (size_t i = 0; i < keys.collectives.size(); ++i)
    CHECK(args.collectives[i].nccl == keys.collectives[i].nccl);
  // A key of the section is laid over the arguments, and the report says so.
  const auto over = given_as(arguments, {{"tensor_parallel", 4}});
  CHECK(over.resolved.at("workload").at("tensor_parallel") == 4);
  CHECK(over.workload_notes ==
        std::vector<std::string>{"Megatron-LM arguments: tensor_parallel 4 set over the arguments' 8"});
  CHECK(flag_value(planner::make_job_plan(over, {}), "--tensor-model-parallel-size") == "4");
  // A value the arguments give that the plan cannot take is refused at the arguments, naming the key.
  CHECK(
      test::input_error_of([&] {
        given_as(
            "--tensor-model-parallel-size 3 --num-layers 24 --hidden-size 2048 --num-attention-heads 16 "
            "--bf16 --micro-batch-size 4 --global-batch-size 96",
            nlohmann::json::object());
      }).rfind(kScenario + ": /workload/megatron_arguments: tensor_parallel as the arguments give it: ", 0) ==
      0);
}
