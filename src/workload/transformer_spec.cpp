// Transformer parameter and FLOP accounting.
#include "workload/transformer_spec.hpp"

#include "core/choice_names.hpp"
#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::workload {
namespace {

constexpr int64_t kMaxCount = int64_t(1) << 24;

core::Param count_param(std::string name, std::string doc, int64_t min = 1) {
  return core::Param::integer(std::move(name), min, kMaxCount, std::move(doc));
}

uint32_t count(core::ParamReader& r, const char* key) {
  return static_cast<uint32_t>(r.get<int64_t>(key));
}

/// A whole number of the table's range that must also lie in [min, max] given the other values.
uint32_t bounded(core::ParamReader& r, const char* key, int64_t fallback, int64_t min, int64_t max) {
  return static_cast<uint32_t>(r.integer_within(key, fallback, min, max));
}

template <class Enum>
Enum choice(core::ParamReader& r, const char* key,
            std::initializer_list<std::pair<const char*, Enum>> options) {
  const std::string text = r.get<std::string>(key);
  std::string known;
  for (const auto& [name, value] : options) {
    if (text == name) return value;
    known += (known.empty() ? "" : ", ") + std::string(name);
  }
  throw r.error(key, "unknown value \"" + text + "\" (known: " + known + ")");
}

/// The attention kinds an "attention" object names (multi-head attention is its absence).
enum class AttentionType { kMla };

const core::ChoiceNames<AttentionType>& attention_types() {
  static const core::ChoiceNames<AttentionType> names{{AttentionType::kMla, "mla"}};
  return names;
}

const core::ParamTable& mla_params() {
  static const core::ParamTable table(
      "transformer.attention", "multi-head latent attention (DeepSeek-V2/V3): low-rank query and key/value",
      {core::Param::choice("type", attention_types().names(),
                           "mla (DeepSeek's multi-head latent attention; omit \"attention\" for multi-head "
                           "attention)")
           .noun("attention type"),
       count_param("q_lora_rank", "rank of the query compression"),
       count_param("kv_lora_rank", "rank of the joint key/value compression"),
       count_param("qk_nope_head_dim", "per-head query/key width without rotary position"),
       count_param("qk_rope_head_dim", "per-head query/key width with rotary position"),
       count_param("v_head_dim", "per-head value width")});
  return table;
}

const core::ParamTable& moe_params() {
  static const core::ParamTable table(
      "transformer.moe", "mixture-of-experts feed-forward layers",
      {count_param("experts", "routed experts per MoE layer"),
       count_param("top_k", "experts each token is routed to; at most experts"),
       count_param("shared_experts", "experts every token goes through", 0).or_default(0),
       count_param("expert_ffn_hidden", "hidden width of one expert's feed-forward"),
       count_param("dense_layers", "leading layers with a dense feed-forward instead; at most layers", 0)
           .or_default(0),
       core::Param::number("capacity_factor", 0.01, 1e6, "expert capacity over the mean load per expert")
           .or_default(1.0)});
  return table;
}

MoeSpec read_moe(core::ParamReader& json, uint32_t layers) {
  core::ParamReader e = json.part("moe");
  MoeSpec moe;
  moe.experts = count(e, "experts");
  moe.top_k = bounded(e, "top_k", 1, 1, moe.experts);
  moe.shared_experts = count(e, "shared_experts");
  moe.expert_ffn_hidden = count(e, "expert_ffn_hidden");
  moe.dense_layers = bounded(e, "dense_layers", 0, 0, layers);
  moe.capacity_factor = e.get<double>("capacity_factor");
  e.finish();
  return moe;
}

}  // namespace

const core::ParamTable& TransformerSpec::params() {
  static const core::ParamTable table(
      "transformer", "a transformer model file (workloads/): dense, or mixture-of-experts with \"moe\"",
      {core::Param::file_kind(core::FileKind::kTransformer, "a model spec"),
       core::Param::text("name", "the model's name"),
       core::Param::text("description", "one line: what the model is").optional(),
       core::Param::text("source", "where the architecture is published").optional(),
       count_param("layers", "transformer layers"),
       count_param("hidden", "hidden size (model width)"),
       count_param("heads", "attention heads"),
       count_param("kv_heads", "key/value heads (grouped-query attention), dividing heads; left out, heads")
           .optional(),
       core::Param::integer("head_dim", 1, int64_t(1) << 16, "width of one head; left out, hidden / heads")
           .optional(),
       count_param("ffn_hidden", "feed-forward hidden width; left out, 4 x hidden").optional(),
       count_param("vocab", "vocabulary size"),
       count_param("seq_len", "sequence length, tokens"),
       core::Param::text("dtype", "the dtype of weights and activations (bf16, fp16, fp8, ...)"),
       core::Param::text("ffn_activation", "\"gelu\" or \"swiglu\" (three feed-forward matrices)")
           .or_default("gelu"),
       core::Param::boolean("biases", "whether linear layers have biases").or_default(true),
       core::Param::boolean("dropout",
                            "whether training applies dropout (after attention, after the FFN and over the "
                            "attention probabilities), keeping its masks for backward: GPT-3 and Megatron-LM "
                            "do; Llama, Mixtral, Qwen and DeepSeek pretrain without")
           .or_default(true),
       core::Param::boolean("parallel_blocks",
                            "attention and FFN in parallel on one normed input, their outputs added "
                            "together (GPT-J, PaLM): one norm per layer, one tensor-parallel exchange each "
                            "way; dense models only")
           .or_default(false),
       core::Param::text("norm", "\"layernorm\" or \"rmsnorm\"").or_default("layernorm"),
       core::Param::text("position_embedding", "\"learned\" (a table of seq_len x hidden) or \"rotary\"")
           .or_default("learned"),
       core::Param::boolean("tied_embeddings", "whether the output layer shares the input embedding")
           .or_default(true),
       core::Param::object("attention", mla_params(), "latent attention; left out, multi-head attention")
           .optional(),
       core::Param::object("moe", moe_params(), "experts; left out, a dense model").optional()});
  return table;
}

TransformerSpec TransformerSpec::from_json(core::JsonObject& object) {
  core::ParamReader json(params(), object);
  json.get<std::string>("kind");  // the table's constant
  TransformerSpec m;
  m.name = json.get<std::string>("name");
  json.find<std::string>("description");
  json.find<std::string>("source");
  m.layers = count(json, "layers");
  m.hidden = count(json, "hidden");
  m.heads = count(json, "heads");
  m.kv_heads = bounded(json, "kv_heads", m.heads, 1, m.heads);
  m.head_dim = static_cast<uint32_t>(json.find<int64_t>("head_dim").value_or(0));
  m.ffn_hidden = bounded(json, "ffn_hidden", 4 * int64_t(m.hidden), 1, kMaxCount);
  m.vocab = count(json, "vocab");
  m.seq_len = count(json, "seq_len");
  std::string dtype = json.get<std::string>("dtype");
  auto d = core::parse_dtype(dtype);
  if (!d) throw json.error("dtype", "unknown dtype \"" + dtype + "\" (known: " + core::known_dtypes() + ")");
  m.dtype = *d;
  m.ffn_activation = choice<FfnActivation>(
      json, "ffn_activation", {{"gelu", FfnActivation::kGelu}, {"swiglu", FfnActivation::kSwiglu}});
  m.biases = json.get<bool>("biases");
  m.dropout = json.get<bool>("dropout");
  m.parallel_blocks = json.get<bool>("parallel_blocks");
  m.norm =
      choice<NormKind>(json, "norm", {{"layernorm", NormKind::kLayerNorm}, {"rmsnorm", NormKind::kRmsNorm}});
  m.learned_positions = choice<bool>(json, "position_embedding", {{"learned", true}, {"rotary", false}});
  m.tied_embeddings = json.get<bool>("tied_embeddings");
  if (json.has("attention")) {
    core::ParamReader a = json.part("attention");
    a.get_choice("type", attention_types());  // one kind so far: multi-head latent attention
    if (m.head_dim != 0)
      throw json.error("head_dim", "MLA gives its head widths in \"attention\"; omit head_dim");
    m.mla = MlaSpec{count(a, "q_lora_rank"), count(a, "kv_lora_rank"), count(a, "qk_nope_head_dim"),
                    count(a, "qk_rope_head_dim"), count(a, "v_head_dim")};
    a.finish();
  } else if (m.head_dim == 0 && m.hidden % m.heads != 0) {
    throw json.error("heads", "hidden size " + std::to_string(m.hidden) + " is not divisible by " +
                                  std::to_string(m.heads) + " heads");
  }
  if (m.heads % m.kv_heads != 0)
    throw json.error("kv_heads", std::to_string(m.kv_heads) + " key/value heads do not divide " +
                                     std::to_string(m.heads) + " heads");
  if (json.has("moe")) m.moe = read_moe(json, m.layers);
  if (m.parallel_blocks && m.moe)
    throw json.error("parallel_blocks",
                     "parallel attention and FFN blocks are modelled for dense models only, "
                     "and this model has \"moe\"");
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
                      {"dropout", dropout},
                      {"parallel_blocks", parallel_blocks},
                      {"norm", norm == NormKind::kLayerNorm ? "layernorm" : "rmsnorm"},
                      {"position_embedding", learned_positions ? "learned" : "rotary"},
                      {"tied_embeddings", tied_embeddings}};
  if (!mla) j["head_dim"] = static_cast<uint32_t>(head_width());
  if (mla)
    j["attention"] = {{"type", attention_types().name(AttentionType::kMla)},
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
  return ffn_matrices() * hidden * width;
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
  return attention_params() + ffn + (parallel_blocks ? 1 : 2) * norm_params();
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

double TransformerSpec::kv_params() const {
  if (mla) return 0.0;
  return 2.0 * (double(hidden) + (biases ? 1.0 : 0.0)) * key_width();
}

uint32_t TransformerSpec::kv_replicas(uint32_t tensor_parallel) const {
  const uint32_t kv = kv_heads == 0 ? heads : kv_heads;
  return mla || tensor_parallel <= kv ? 1 : tensor_parallel / kv;
}

double TransformerSpec::attention_params_per_rank(uint32_t tensor_parallel) const {
  return (attention_params() + (kv_replicas(tensor_parallel) - 1.0) * kv_params()) / tensor_parallel;
}

core::Flops TransformerSpec::attention_forward_flops_per_rank(uint64_t sequences,
                                                              uint32_t tensor_parallel) const {
  const double copies = kv_replicas(tensor_parallel) - 1.0;
  const double kv_weights = 2.0 * double(hidden) * key_width();
  return core::Flops(
      (attention_forward_flops(sequences).value() + copies * 2.0 * double(sequences) * seq_len * kv_weights) /
      tensor_parallel);
}

core::Flops TransformerSpec::attention_score_flops(uint64_t sequences) const {
  const double b = double(sequences), s = seq_len;
  const double qk = mla ? mla->qk_nope_head_dim + mla->qk_rope_head_dim : head_width();
  const double v = mla ? mla->v_head_dim : head_width();
  return core::Flops(2 * b * s * s * heads * (qk + v));
}

double TransformerSpec::query_width() const {
  return double(heads) * (mla ? mla->qk_nope_head_dim + mla->qk_rope_head_dim : head_width());
}

double TransformerSpec::key_width() const {
  if (mla) return query_width();
  return double(kv_heads == 0 ? heads : kv_heads) * head_width();
}

double TransformerSpec::value_width() const {
  if (mla) return attention_output_width();
  return double(kv_heads == 0 ? heads : kv_heads) * head_width();
}

double TransformerSpec::attention_output_width() const {
  return double(heads) * (mla ? mla->v_head_dim : head_width());
}

double TransformerSpec::ffn_activation_width(uint32_t layer) const {
  if (!is_moe_layer(layer)) return ffn_matrices() * ffn_hidden;
  return ffn_matrices() * double(moe->top_k + moe->shared_experts) * moe->expert_ffn_hidden;
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
