// Transformer accounting against Megatron-LM's closed forms (SC'21, Table 1 shapes).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "support/approx.hpp"
#include "support/test_models.hpp"
#include "workload/transformer_spec.hpp"

using zs::workload::TransformerSpec;

namespace {
struct Row {
  double params_billion;
  uint32_t heads, hidden, layers;
  uint64_t batch;
};

std::vector<Row> megatron_table1() {
  // The validation rows (Tables 1 and 2 with their run configuration); Table 1's have table = 1.
  std::ifstream in(std::string(ZS_SOURCE_DIR) + "/scenarios/validation/megatron-sc21.csv");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("table", 0) == 0) continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (f[0] != "1") continue;
    rows.push_back({std::stod(f[1]), uint32_t(std::stoul(f[5])), uint32_t(std::stoul(f[4])),
                    uint32_t(std::stoul(f[3])), std::stoull(f[10])});
  }
  return rows;
}

TransformerSpec spec(const Row& r) {
  return zs::test::gpt("row", r.layers, r.hidden, r.heads, 4 * r.hidden, 51200, 2048);
}
}  // namespace

TEST_CASE("parameter counts match Megatron-LM's formula and Table 1's sizes") {
  auto rows = megatron_table1();
  REQUIRE(rows.size() == 10);
  for (const auto& r : rows) {
    auto m = spec(r);
    double l = r.layers, h = r.hidden, V = 51200, s = 2048;
    // P = 12 l h^2 (1 + 13/(12h) + (V+s)/(12lh)); ours also counts the final layer norm (2h).
    double megatron = 12 * l * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * l * h));
    CHECK(m.total_params() == zs::test::approx(megatron + 2 * h).epsilon(1e-12));
    CHECK(m.total_params() / 1e9 == zs::test::approx(r.params_billion).epsilon(0.03));
  }
}

TEST_CASE("training FLOPs without recomputation: 72 B s l h^2 (1 + s/(6h) + V/(12 l h))") {
  for (const auto& r : megatron_table1()) {
    auto m = spec(r);
    double B = double(r.batch), s = 2048, l = r.layers, h = r.hidden, V = 51200;
    double expected = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * l * h));
    CHECK(m.training_flops(r.batch).value() == zs::test::approx(expected).epsilon(1e-12));
    // Megatron-LM's 96 B s l h^2 (...) adds one forward pass of the layers for full recomputation.
    double megatron = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
    double recompute = double(m.layer_forward_flops(0, r.batch).value()) * l;
    CHECK(m.training_flops(r.batch).value() + recompute == zs::test::approx(megatron).epsilon(1e-12));
  }
}

TEST_CASE("the shipped GPT-3 1.3B shape has 1.32 billion parameters") {
  auto m = zs::test::gpt("gpt3-1.3b", 24, 2048, 16, 8192, 51200, 2048);
  CHECK(m.total_params() ==
        24 * (12.0 * 2048 * 2048 + 13 * 2048) + 51200.0 * 2048 + 2048.0 * 2048 + 2 * 2048);
  CHECK(m.total_params() / 1e9 == zs::test::approx(1.3177).epsilon(1e-3));
}

TEST_CASE("every key a model file's resolved form writes is declared in the model file's table") {
  for (const char* file : {"gpt3-1.3b.json", "deepseek-v3-671b.json", "mixtral-8x7b.json"}) {
    CAPTURE(file);
    std::ifstream in(std::string(ZS_SOURCE_DIR) + "/workloads/" + file);
    const nlohmann::json doc = nlohmann::json::parse(in);
    zs::core::JsonObject o(doc, file, "");
    const nlohmann::json written = TransformerSpec::from_json(o).to_json();
    const auto& table = TransformerSpec::params();
    for (const auto& item : written.items()) {
      const std::string key = item.key();
      CAPTURE(key);
      const auto* p = table.find(key);
      REQUIRE(p != nullptr);
      if (p->part == nullptr) continue;
      for (const auto& inner_item : item.value().items()) {
        const std::string inner = inner_item.key();
        CAPTURE(inner);
        CHECK(p->part->find(inner) != nullptr);
      }
    }
    // And what it writes reads back to the same model.
    zs::core::JsonObject again(written, file, "");
    CHECK(TransformerSpec::from_json(again).to_json() == written);
  }
}

TEST_CASE("parallel blocks: one norm per layer, and refused with experts") {
  auto m = zs::test::gpt("m", 4, 1024, 16, 4096, 50000, 2048);
  const double sequential = m.layer_params(0);
  m.parallel_blocks = true;
  CHECK(sequential - m.layer_params(0) == 2.0 * 1024);  // one layer norm's scale and bias
  nlohmann::json doc = {{"kind", "transformer"},
                        {"name", "p"},
                        {"layers", 4},
                        {"hidden", 64},
                        {"heads", 4},
                        {"vocab", 100},
                        {"seq_len", 16},
                        {"dtype", "bf16"},
                        {"parallel_blocks", true},
                        {"moe", {{"experts", 4}, {"top_k", 1}, {"expert_ffn_hidden", 128}}}};
  zs::core::JsonObject o(doc, "p.json", "");
  std::string error;
  try {
    TransformerSpec::from_json(o);
  } catch (const std::exception& e) {
    error = e.what();
  }
  CHECK(error ==
        "p.json: /parallel_blocks: parallel attention and FFN blocks are modelled for dense models only, and "
        "this model has \"moe\"");
}
