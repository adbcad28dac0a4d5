// Megatron-LM arguments read into a plan and written from one: flags, defaults, refusals, agreement.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "core/input_error.hpp"
#include "core/json_object.hpp"
#include "workload/megatron_arguments.hpp"

using namespace zs;

namespace {

workload::TransformerSpec model(const std::string& name) {
  std::ifstream in(std::string(ZS_SOURCE_DIR) + "/workloads/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json doc = nlohmann::json::parse(text.str());
  core::JsonObject json(doc, name + ".json", "");
  return workload::TransformerSpec::from_json(json);
}

/// The gpt3-1.3b network as Megatron-LM's examples write it.
const char* kGptNetwork =
    "--num-layers 24 --hidden-size 2048 --num-attention-heads 16 --seq-length 2048 "
    "--max-position-embeddings 2048 --bf16 ";

workload::MegatronReading read(const std::string& text, const std::string& name = "gpt3-1.3b") {
  return workload::read_megatron_arguments(text, model(name), "job.args", "");
}

std::string refusal(const std::string& text, const std::string& name = "gpt3-1.3b") {
  try {
    read(text, name);
  } catch (const core::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("Megatron-LM arguments set the plan keys their flags stand for, Megatron-LM's defaults elsewhere") {
  const auto r = read(std::string(kGptNetwork) +
                      "--tensor-model-parallel-size 8 --sequence-parallel --micro-batch-size 4 \\\n"
                      "  --global-batch-size=96 --use-distributed-optimizer --lr 3.0e-4 "
                      "--data-path '/data/my corpus' --train-iters 500  # a comment --fp16\n");
  CHECK(r.plan.at("tensor_parallel") == 8);
  CHECK(r.plan.at("pipeline_parallel") == 1);  // Megatron-LM's default
  CHECK(r.plan.at("sequence_parallel") == true);
  CHECK(r.plan.at("micro_batch") == 4);
  CHECK(r.plan.at("global_batch") == 96);  // --flag=value
  CHECK(r.plan.at("zero_stage") == 1);
  CHECK(r.plan.at("recompute") == "none");
  CHECK(r.plan.at("gradient_clipping") == true);  // --clip-grad 1.0
  CHECK(r.plan.at("flash_attention") == true);    // --attention-backend auto
  CHECK(r.plan.at("schedule") == "1f1b");
  CHECK(!r.plan.contains("data_parallel"));           // Megatron-LM takes it from the world size
  CHECK(!r.plan.contains("gradient_dtype"));          // Megatron-LM's own rule: the plan's "auto"
  CHECK(!r.plan.contains("expert_tensor_parallel"));  // a dense model
  REQUIRE(r.ignored.size() == 3);
  CHECK(r.ignored[0] == "--lr 3.0e-4 (the optimizer's hyperparameters, no part of an iteration's time)");
  CHECK(r.ignored[1].rfind("--data-path /data/my corpus (", 0) == 0);  // quoted, one value
  CHECK(r.ignored[2].rfind("--train-iters 500 (", 0) == 0);
}

TEST_CASE("interleaving, uneven stages, recomputation, fp8 and expert sizes read as the plan writes them") {
  const std::string mixtral =
      "--num-layers 32 --hidden-size 4096 --ffn-hidden-size 14336 --num-attention-heads 32 "
      "--group-query-attention --num-query-groups 8 --seq-length 4096 --max-position-embeddings 32768 "
      "--position-embedding-type rope --normalization RMSNorm --swiglu --untie-embeddings-and-output-weights "
      "--disable-bias-linear --attention-dropout 0.0 --hidden-dropout 0.0 --bf16 --num-experts 8 "
      "--moe-router-topk 2 --moe-ffn-hidden-size 14336 ";
  const auto interleaved = read(mixtral +
                                    "--tensor-model-parallel-size 2 --pipeline-model-parallel-size 4 "
                                    "--num-layers-per-virtual-pipeline-stage 4 --recompute-granularity full "
                                    "--recompute-method block --recompute-num-layers 2 --fp8-format hybrid",
                                "mixtral-8x7b");
  CHECK(interleaved.plan.at("schedule") == "interleaved-1f1b");
  CHECK(interleaved.plan.at("virtual_stages") == 2);      // 32 layers / (4 stages x 4 layers)
  CHECK(!interleaved.plan.contains("microbatch_group"));  // left out: pipeline_parallel
  const auto grouped = read(mixtral +
                                "--pipeline-model-parallel-size 4 --num-layers-per-virtual-pipeline-stage 4 "
                                "--microbatch-group-size-per-virtual-pipeline-stage 6",
                            "mixtral-8x7b");
  CHECK(grouped.plan.at("microbatch_group") == 6);
  CHECK(interleaved.plan.at("overlap_pipeline_exchanges") == true);  // Megatron-Core overlaps them
  CHECK(interleaved.plan.at("recompute") == "full");
  CHECK(interleaved.plan.at("recompute_method") == "block");
  CHECK(interleaved.plan.at("recompute_layers") == 2);
  CHECK(interleaved.plan.at("fp8") == "transformer-engine");
  CHECK(interleaved.plan.at("fp8_amax_reduction") == true);   // Transformer Engine's default
  CHECK(interleaved.plan.at("expert_tensor_parallel") == 2);  // left out: tensor parallel's size
  // --max-position-embeddings past the sequence: listed, not refused (rotary positions hold no table)
  REQUIRE(interleaved.ignored.size() == 1);
  CHECK(interleaved.ignored[0].rfind("--max-position-embeddings 32768 (", 0) == 0);
  const auto uneven = read(mixtral +
                               "--pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 7 "
                               "--decoder-last-pipeline-num-layers 7",
                           "mixtral-8x7b");
  CHECK(uneven.plan.at("layers_per_stage") == nlohmann::json({7, 9, 9, 7}));
  CHECK(refusal(mixtral + "--pipeline-model-parallel-size 4 --decoder-first-pipeline-num-layers 6",
                "mixtral-8x7b")
            .find("--decoder-first-pipeline-num-layers leaves the model's 32 layers no even split") !=
        std::string::npos);  // 26 over 3 stages
}

TEST_CASE("an argument zettasim does not know or model is refused by name, and the network must agree") {
  const std::string base = kGptNetwork;
  CHECK(
      refusal(base + "--tensor-model-parallel-sise 8") ==
      "job.args: --tensor-model-parallel-sise is not a Megatron-LM argument zettasim knows (the arguments it "
      "reads and ignores are listed in docs/input-files.md)");
  CHECK(refusal(base + "--use-megatron-fsdp") ==
        "job.args: --use-megatron-fsdp is not modelled: Megatron-FSDP; set zero_stage 3 in the workload "
        "section "
        "instead");
  CHECK(refusal(base + "--tensor-model-parallel-size eight") ==
        "job.args: --tensor-model-parallel-size expects a whole number of at least 1, got \"eight\"");
  CHECK(refusal(base + "--micro-batch-size") == "job.args: --micro-batch-size expects a value");
  CHECK(refusal(base + "--sequence-parallel=1") ==
        "job.args: --sequence-parallel is a switch and takes no value");
  CHECK(refusal(base + "--micro-batch-size 1 --micro-batch-size 2") ==
        "job.args: --micro-batch-size is given twice");
  CHECK(refusal(base + "--data-path 'open") == "job.args: Megatron-LM arguments: a ' quote is not closed");
  CHECK(refusal("8 " + base) == "job.args: expected an argument starting with --, got \"8\"");
  // The model's file says what the network is; a flag left out is Megatron-LM's default.
  CHECK(
      refusal("--num-layers 24 --hidden-size 4096 --num-attention-heads 16 --bf16") ==
      "job.args: --hidden-size 4096 disagrees with the model gpt3-1.3b, which is --hidden-size 2048 (a flag "
      "left out means Megatron-LM's default)");
  CHECK(
      refusal("--num-layers 24 --hidden-size 2048 --num-attention-heads 16") ==
      "job.args: --bf16 left out disagrees with the model gpt3-1.3b, which is --bf16 (a flag left out means "
      "Megatron-LM's default)");
  CHECK(refusal(base + "--swiglu")
            .find("--swiglu disagrees with the model gpt3-1.3b, which is --swiglu left out") !=
        std::string::npos);
  CHECK(refusal(base + "--fp8-format e5m2")
            .find("--fp8-format e5m2 with --fp8-recipe delayed is not modelled") != std::string::npos);
  CHECK(refusal(base + "--recompute-granularity full").find("needs --recompute-method uniform or block") !=
        std::string::npos);
  CHECK(refusal(base + "--grad-reduce-in-bf16") == "(accepted)");
  CHECK(read(base + "--grad-reduce-in-bf16").plan.at("gradient_dtype") == "bf16");
  // Nothing in the text is run or expanded.
  CHECK(read(base + "--data-path \"$(touch /tmp/zs-megatron-pwned)\"").ignored.at(0).find("$(touch") !=
        std::string::npos);
}

TEST_CASE("every flag written or read is one that Megatron-LM's arguments.py defines") {
  const auto& names = workload::megatron_argument_names();
  for (const char* m : {"gpt3-1.3b", "mixtral-8x7b", "deepseek-v3-671b", "qwen3-30b-a3b", "llama3-405b"}) {
    CAPTURE(m);
    workload::MegatronJob job{model(m), workload::ParallelPlan{}};
    job.plan.recompute = workload::Recompute::kFull;
    job.plan.zero_stage = 1;
    job.plan.fp8 = workload::Fp8Recipe::kDeepSeekV3;
    job.plan.flash_attention = false;
    const auto command = workload::megatron_command(job, 10);
    for (const auto& argument : command.arguments) {
      const std::string& flag = argument.first;
      CAPTURE(flag);
      CHECK(std::find(names.begin(), names.end(), flag) != names.end());
    }
    // What is written reads back against the same model.
    const auto back = workload::read_megatron_arguments(workload::megatron_text(command.arguments), job.model,
                                                        "written", "");
    CHECK(back.plan.at("recompute") == "full");
    CHECK(back.plan.at("fp8") == "deepseek-v3");
    CHECK(back.plan.at("flash_attention") == false);
  }
}
