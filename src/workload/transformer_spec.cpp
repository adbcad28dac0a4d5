// Transformer parameter and FLOP accounting.
#include "workload/transformer_spec.hpp"

namespace zs::workload {
namespace {

uint32_t count(core::JsonObject& json, const char* key, int64_t min = 1) {
  return static_cast<uint32_t>(json.integer(key, min, int64_t(1) << 24));
}

template <class Enum>
Enum choice(core::JsonObject& json, const char* key, Enum fallback,
            std::initializer_list<std::pair<const char*, Enum>> options) {
  auto text = json.optional_string(key);
  if (!text) return fallback;
  std::string known;
  for (const auto& [name, value] : options) {
    if (*text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  throw json.error(key, "unknown value \"" + *text + "\" (known: " + known + ")");
}

}  // namespace

TransformerSpec TransformerSpec::from_json(core::JsonObject& json) {
  if (json.string("kind") != "transformer")
    throw json.error("kind", "expected \"transformer\" for a model spec");
  TransformerSpec m;
  m.name = json.string("name");
  json.optional_string("description");
  json.optional_string("source");
  m.layers = count(json, "layers");
  m.hidden = count(json, "hidden");
  m.heads = count(json, "heads");
  m.kv_heads = static_cast<uint32_t>(json.integer_or("kv_heads", m.heads, 1, m.heads));
  m.head_dim = static_cast<uint32_t>(json.integer_or("head_dim", 0, 1, int64_t(1) << 16));
  m.ffn_hidden =
      static_cast<uint32_t>(json.integer_or("ffn_hidden", 4 * int64_t(m.hidden), 1, int64_t(1) << 24));
  m.vocab = count(json, "vocab");
  m.seq_len = count(json, "seq_len");
  std::string dtype = json.string("dtype");
  auto d = core::parse_dtype(dtype);
  if (!d) throw json.error("dtype", "unknown dtype \"" + dtype + "\" (known: " + core::known_dtypes() + ")");
  m.dtype = *d;
  m.ffn_activation = choice(json, "ffn_activation", FfnActivation::kGelu,
                            {{"gelu", FfnActivation::kGelu}, {"swiglu", FfnActivation::kSwiglu}});
  m.biases = json.boolean_or("biases", true);
  m.norm = choice(json, "norm", NormKind::kLayerNorm,
                  {{"layernorm", NormKind::kLayerNorm}, {"rmsnorm", NormKind::kRmsNorm}});
  m.learned_positions = choice(json, "position_embedding", true, {{"learned", true}, {"rotary", false}});
  m.tied_embeddings = json.boolean_or("tied_embeddings", true);
  if (json.has("attention")) {
    core::JsonObject a = json.object("attention");
    if (a.string("type") != "mla")
      throw a.error("type", "expected \"mla\" (omit \"attention\" for multi-head attention)");
    if (m.head_dim != 0)
      throw json.error("head_dim", "MLA gives its head widths in \"attention\"; omit head_dim");
    m.mla = MlaSpec{count(a, "q_lora_rank"), count(a, "kv_lora_rank"), count(a, "qk_nope_head_dim"),
                    count(a, "qk_rope_head_dim"), count(a, "v_head_dim")};
    a.finish();
  } else {
    json.optional("attention");
    if (m.head_dim == 0 && m.hidden % m.heads != 0)
      throw json.error("heads", "hidden size " + std::to_string(m.hidden) + " is not divisible by " +
                                    std::to_string(m.heads) + " heads");
  }
  if (m.heads % m.kv_heads != 0)
    throw json.error("kv_heads", std::to_string(m.kv_heads) + " key/value heads do not divide " +
                                     std::to_string(m.heads) + " heads");
  if (json.has("moe")) {
    core::JsonObject e = json.object("moe");
    MoeSpec moe;
    moe.experts = count(e, "experts");
    moe.top_k = static_cast<uint32_t>(e.integer("top_k", 1, moe.experts));
    moe.shared_experts = static_cast<uint32_t>(e.integer_or("shared_experts", 0, 0, 1 << 16));
    moe.expert_ffn_hidden = count(e, "expert_ffn_hidden");
    moe.dense_layers = static_cast<uint32_t>(e.integer_or("dense_layers", 0, 0, m.layers));
    moe.capacity_factor = e.number_or("capacity_factor", 1.0, 0.01, 1e6);
    e.finish();
    m.moe = moe;
  } else {
    json.optional("moe");
  }
  json.finish();
  return m;
}

nlohmann::json TransformerSpec::to_json() const {
  nlohmann::json j = {{"kind", "transformer"},
                      {"name", name},
                      {"layers", layers},
                      {"hidden", hidden},
                      {"heads", heads},
                      {"kv_heads", kv_heads},
                      {"ffn_hidden", ffn_hidden},
                      {"vocab", vocab},
                      {"seq_len", seq_len},
                      {"dtype", std::string(core::to_string(dtype))},
                      {"ffn_activation", ffn_activation == FfnActivation::kGelu ? "gelu" : "swiglu"},
                      {"biases", biases},
                      {"norm", norm == NormKind::kLayerNorm ? "layernorm" : "rmsnorm"},
                      {"position_embedding", learned_positions ? "learned" : "rotary"},
                      {"tied_embeddings", tied_embeddings}};
  if (!mla) j["head_dim"] = static_cast<uint32_t>(head_width());
  if (mla)
    j["attention"] = {{"type", "mla"},
                      {"q_lora_rank", mla->q_lora_rank},
                      {"kv_lora_rank", mla->kv_lora_rank},
                      {"qk_nope_head_dim", mla->qk_nope_head_dim},
                      {"qk_rope_head_dim", mla->qk_rope_head_dim},
                      {"v_head_dim", mla->v_head_dim}};
  if (moe)
    j["moe"] = {{"experts", moe->experts},
                {"top_k", moe->top_k},
                {"shared_experts", moe->shared_experts},
                {"expert_ffn_hidden", moe->expert_ffn_hidden},
                {"dense_layers", moe->dense_layers},
                {"capacity_factor", moe->capacity_factor}};
  return j;
}

double TransformerSpec::norm_params() const {
  return norm == NormKind::kLayerNorm ? 2.0 * hidden : double(hidden);
}

double TransformerSpec::ffn_weights(double width) const {
  return (ffn_activation == FfnActivation::kGelu ? 2.0 : 3.0) * hidden * width;
}

double TransformerSpec::ffn_params(double width) const {
  double bias = ffn_activation == FfnActivation::kGelu ? width + hidden : 2 * width + hidden;
  return ffn_weights(width) + (biases ? bias : 0.0);
}

double TransformerSpec::attention_weights() const {
  const double h = hidden;
  if (mla) {
    const double n = heads;
    return h * mla->q_lora_rank +
           double(mla->q_lora_rank) * n * (mla->qk_nope_head_dim + mla->qk_rope_head_dim) +
           h * (mla->kv_lora_rank + mla->qk_rope_head_dim) +
           double(mla->kv_lora_rank) * n * (mla->qk_nope_head_dim + mla->v_head_dim) +
           n * mla->v_head_dim * h;
  }
  const double q = double(heads) * head_width();                              // query and output width
  const double kv = double(kv_heads == 0 ? heads : kv_heads) * head_width();  // key and value width
  return 2 * h * q + 2 * h * kv;  // query and output h x q, key and value h x kv
}

double TransformerSpec::attention_params() const {
  if (mla) return attention_weights() + mla->q_lora_rank + mla->kv_lora_rank;  // the latent norms
  const double kv = double(kv_heads == 0 ? heads : kv_heads) * head_width();
  return attention_weights() + (biases ? double(hidden) + heads * head_width() + 2 * kv : 0.0);
}

double TransformerSpec::ffn_block_weights(uint32_t layer, bool all_experts) const {
  if (!is_moe_layer(layer)) return ffn_weights(ffn_hidden);
  double experts = (all_experts ? moe->experts : moe->top_k) + moe->shared_experts;
  return experts * ffn_weights(moe->expert_ffn_hidden) + double(hidden) * moe->experts;  // + router
}

double TransformerSpec::layer_params(uint32_t layer) const {
  double ffn = is_moe_layer(layer)
                   ? double(moe->experts + moe->shared_experts) * ffn_params(moe->expert_ffn_hidden) +
                         double(hidden) * moe->experts
                   : ffn_params(ffn_hidden);
  return attention_params() + ffn + 2 * norm_params();
}

double TransformerSpec::embedding_params() const {
  double h = hidden;
  return double(vocab) * h * (tied_embeddings ? 1 : 2) + (learned_positions ? double(seq_len) * h : 0.0) +
         norm_params();
}

double TransformerSpec::total_params() const {
  double total = embedding_params();
  for (uint32_t l = 0; l < layers; ++l) total += layer_params(l);
  return total;
}

double TransformerSpec::active_params() const {
  double total = double(vocab) * hidden;  // the output layer
  for (uint32_t l = 0; l < layers; ++l) total += attention_weights() + ffn_block_weights(l, false);
  return total;
}

core::Flops TransformerSpec::attention_forward_flops(uint64_t sequences) const {
  const double b = double(sequences), s = seq_len;
  const double qk = mla ? mla->qk_nope_head_dim + mla->qk_rope_head_dim : head_width();
  const double v = mla ? mla->v_head_dim : head_width();
  return core::Flops(2 * b * s * attention_weights() + 2 * b * s * s * heads * (qk + v));
}

core::Flops TransformerSpec::attention_score_flops(uint64_t sequences) const {
  const double b = double(sequences), s = seq_len;
  const double qk = mla ? mla->qk_nope_head_dim + mla->qk_rope_head_dim : head_width();
  const double v = mla ? mla->v_head_dim : head_width();
  return core::Flops(2 * b * s * s * heads * (qk + v));
}

double TransformerSpec::kv_width() const {
  if (mla) return double(heads) * (mla->qk_nope_head_dim + mla->qk_rope_head_dim + mla->v_head_dim);
  return 2.0 * (kv_heads == 0 ? heads : kv_heads) * head_width();
}

double TransformerSpec::ffn_activation_width(uint32_t layer) const {
  const double tensors = ffn_activation == FfnActivation::kGelu ? 2.0 : 3.0;
  if (!is_moe_layer(layer)) return tensors * ffn_hidden;
  return tensors * double(moe->top_k + moe->shared_experts) * moe->expert_ffn_hidden;
}

core::Flops TransformerSpec::ffn_forward_flops(uint32_t layer, uint64_t sequences) const {
  return core::Flops(2 * double(sequences) * seq_len * ffn_block_weights(layer, false));
}

core::Flops TransformerSpec::layer_forward_flops(uint32_t layer, uint64_t sequences) const {
  return attention_forward_flops(sequences) + ffn_forward_flops(layer, sequences);
}

core::Flops TransformerSpec::logits_forward_flops(uint64_t sequences) const {
  return core::Flops(2.0 * double(sequences) * seq_len * hidden * double(vocab));
}

core::Flops TransformerSpec::training_flops(uint64_t sequences) const {
  core::Flops forward = logits_forward_flops(sequences);
  for (uint32_t l = 0; l < layers; ++l) forward += layer_forward_flops(l, sequences);
  return forward * 3.0;
}

}  // namespace zs::workload
