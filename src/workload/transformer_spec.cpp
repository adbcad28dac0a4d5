// Transformer parameter and FLOP accounting.
#include "workload/transformer_spec.hpp"

namespace zs::workload {

TransformerSpec TransformerSpec::from_json(core::JsonObject& json) {
  if (json.string("kind") != "transformer")
    throw json.error("kind", "expected \"transformer\" for a model spec");
  TransformerSpec m;
  m.name = json.string("name");
  json.optional_string("description");
  json.optional_string("source");
  constexpr int64_t kMax = 1 << 24;
  m.layers = static_cast<uint32_t>(json.integer("layers", 1, kMax));
  m.hidden = static_cast<uint32_t>(json.integer("hidden", 1, kMax));
  m.heads = static_cast<uint32_t>(json.integer("heads", 1, kMax));
  m.ffn_hidden = static_cast<uint32_t>(json.integer_or("ffn_hidden", 4 * int64_t(m.hidden), 1, kMax));
  m.vocab = static_cast<uint32_t>(json.integer("vocab", 1, kMax));
  m.seq_len = static_cast<uint32_t>(json.integer("seq_len", 1, kMax));
  std::string dtype = json.string("dtype");
  auto d = core::parse_dtype(dtype);
  if (!d) throw json.error("dtype", "unknown dtype \"" + dtype + "\" (known: " + core::known_dtypes() + ")");
  m.dtype = *d;
  if (m.hidden % m.heads != 0)
    throw json.error("heads", "hidden size " + std::to_string(m.hidden) + " is not divisible by " +
                                  std::to_string(m.heads) + " heads");
  json.finish();
  return m;
}

nlohmann::json TransformerSpec::to_json() const {
  return {{"kind", "transformer"}, {"name", name},       {"layers", layers},
          {"hidden", hidden},      {"heads", heads},     {"ffn_hidden", ffn_hidden},
          {"vocab", vocab},        {"seq_len", seq_len}, {"dtype", std::string(core::to_string(dtype))}};
}

double TransformerSpec::params_per_layer() const {
  double h = hidden, f = ffn_hidden;
  return 4 * h * h + 2 * h * f + 9 * h + f;
}

double TransformerSpec::embedding_params() const {
  double h = hidden;
  return double(vocab) * h + double(seq_len) * h + 2 * h;
}

double TransformerSpec::total_params() const {
  return layers * params_per_layer() + embedding_params();
}

core::Flops TransformerSpec::layer_forward_flops(uint64_t sequences) const {
  double b = double(sequences), s = seq_len, h = hidden, f = ffn_hidden;
  return core::Flops(2 * b * s * (4 * h * h + 2 * h * f) + 4 * b * s * s * h);
}

core::Flops TransformerSpec::logits_forward_flops(uint64_t sequences) const {
  return core::Flops(2.0 * double(sequences) * seq_len * hidden * double(vocab));
}

core::Flops TransformerSpec::training_flops(uint64_t sequences) const {
  return (layer_forward_flops(sequences) * double(layers) + logits_forward_flops(sequences)) * 3.0;
}

}  // namespace zs::workload
