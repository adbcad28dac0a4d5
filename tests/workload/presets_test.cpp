// Model presets against their published parameter counts, and the 10T MoE against its target.
#include <doctest/doctest.h>

#include "core/file_source.hpp"
#include "support/approx.hpp"
#include "workload/transformer_spec.hpp"

using namespace zs;

namespace {
workload::TransformerSpec preset(const std::string& name) {
  core::DiskFileSource files;
  std::string path = std::string(ZS_SOURCE_DIR) + "/workloads/" + name + ".json";
  auto doc = files.read_json(path);
  core::JsonObject o(doc, path, "");
  return workload::TransformerSpec::from_json(o);
}
}  // namespace

TEST_CASE("presets match their published parameter counts within 2%") {
  struct Case {
    const char* name;
    double published;
  };
  for (const auto& c :
       {Case{"gpt3-175b", 175e9}, Case{"megatron-1t", 1008e9}, Case{"llama3-405b", 405e9},
        Case{"deepseek-v3-671b", 671e9}, Case{"mixtral-8x7b", 46.7e9}, Case{"qwen3-30b-a3b", 30.5e9}}) {
    CAPTURE(c.name);
    CHECK(preset(c.name).total_params() == zs::test::approx(c.published).epsilon(0.02));
  }
}

TEST_CASE("MoE presets activate their published share of parameters") {
  CHECK(preset("mixtral-8x7b").active_params() == zs::test::approx(12.9e9).epsilon(0.02));
  CHECK(preset("deepseek-v3-671b").active_params() == zs::test::approx(37e9).epsilon(0.02));
  // Qwen's 3.3B active counts the input embedding too (151936 x 2048), which active_params leaves out.
  const auto qwen = preset("qwen3-30b-a3b");
  CHECK(qwen.active_params() + 151936.0 * 2048 == zs::test::approx(3.3e9).epsilon(0.02));
}

TEST_CASE("head_dim widens the query and output projections and the attention scores") {
  auto qwen = preset("qwen3-30b-a3b");
  // Per layer: query and output 2048 x (32 x 128), keys and values 2048 x (4 x 128).
  CHECK(qwen.attention_params() == 2.0 * 2048 * 4096 + 2.0 * 2048 * 512);
  CHECK(qwen.kv_width() == 2.0 * 4 * 128);
  CHECK(qwen.attention_score_flops(1).value() == 2.0 * 4096 * 4096 * 32 * (128 + 128));
  CHECK(qwen.to_json()["head_dim"] == 128);
  // Left out, a head is hidden / heads wide: 64 here, and the projections are 2048 x 2048.
  qwen.head_dim = 0;
  CHECK(qwen.attention_params() == 2.0 * 2048 * 2048 + 2.0 * 2048 * 256);
  CHECK(qwen.to_json()["head_dim"] == 64);
}

TEST_CASE("moe-10t has 10 trillion parameters within 3%, as workloads/README.md computes") {
  auto m = preset("moe-10t");
  CHECK(m.total_params() == zs::test::approx(10e12).epsilon(0.03));
  // The README's arithmetic: per layer, 1025 SwiGLU experts of 3 x 12288 x 4096, a router of
  // 12288 x 1024, attention 2 x 12288^2 + 2 x 12288 x 1024, two RMSNorms; plus two embeddings.
  const double h = 12288, expert = 3 * h * 4096;
  const double layer = 1025 * expert + h * 1024 + 2 * h * h + 2 * h * 1024 + 2 * h;
  CHECK(m.layer_params(0) == zs::test::approx(layer).epsilon(1e-12));
  CHECK(m.total_params() == zs::test::approx(64 * layer + 2 * 128256 * h + h).epsilon(1e-12));
  // Expert parallelism over 1024 experts and tensor parallelism 8 divide the model evenly.
  CHECK(m.moe->experts % 1024 == 0);
  CHECK(m.heads % 8 == 0);
  CHECK(m.kv_heads % 8 == 0);
}

TEST_CASE("bad model files name the JSON path") {
  auto error_of = [](nlohmann::json j) {
    try {
      core::JsonObject o(j, "m.json", "");
      workload::TransformerSpec::from_json(o);
    } catch (const core::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  nlohmann::json base = {{"kind", "transformer"}, {"name", "x"},    {"layers", 2},
                         {"hidden", 64},          {"heads", 8},     {"vocab", 100},
                         {"seq_len", 16},         {"dtype", "bf16"}};
  auto j = base;
  j["kv_heads"] = 3;
  CHECK(error_of(j) == "m.json: /kv_heads: 3 key/value heads do not divide 8 heads");
  j = base;
  j["ffn_activation"] = "relu";
  CHECK(error_of(j) == "m.json: /ffn_activation: unknown value \"relu\" (known: gelu, swiglu)");
  j = base;
  j["moe"] = {{"experts", 4}, {"top_k", 8}, {"expert_ffn_hidden", 32}};
  CHECK(error_of(j).find("m.json: /moe/top_k: expected a whole number in [1, 4]") == 0);
  j = base;
  j["moe"] = {{"experts", 4}, {"top_k", 2}, {"expert_ffn_hidden", 32}, {"dense_layers", 3}};
  CHECK(error_of(j).find("m.json: /moe/dense_layers: expected a whole number in [0, 2]") == 0);
  j = base;
  j["head_dim"] = 16;
  j["attention"] = {{"type", "mla"},         {"q_lora_rank", 8},      {"kv_lora_rank", 8},
                    {"qk_nope_head_dim", 8}, {"qk_rope_head_dim", 4}, {"v_head_dim", 8}};
  CHECK(error_of(j) == "m.json: /head_dim: MLA gives its head widths in \"attention\"; omit head_dim");
  j = base;
  j["heads"] = 3;
  CHECK(error_of(j) == "m.json: /heads: hidden size 64 is not divisible by 3 heads");
  j["head_dim"] = 16;  // heads x head_dim need not be the hidden size
  CHECK(error_of(j) == "(no error)");
  j["head_dim"] = 0;  // omitted means hidden / heads; an explicit 0 is not that
  CHECK(error_of(j).find("m.json: /head_dim: expected a whole number in [1, 65536]") == 0);
}
