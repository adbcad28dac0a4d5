// Test helper: a GPT-style transformer spec from its shape (GELU, biases, tied embeddings: the defaults).
#pragma once

#include <cstdint>
#include <string>

#include "workload/transformer_spec.hpp"

namespace zs::test {

inline workload::TransformerSpec gpt(std::string name, uint32_t layers, uint32_t hidden, uint32_t heads,
                                     uint32_t ffn_hidden, uint32_t vocab, uint32_t seq_len) {
  workload::TransformerSpec m;
  m.name = std::move(name);
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.ffn_hidden = ffn_hidden;
  m.vocab = vocab;
  m.seq_len = seq_len;
  return m;
}

/// The workload tests' small model: 8 layers, hidden 512, 8 heads, FFN 2,048, vocabulary 1,000, sequence
/// 256 tokens; small enough to list every op of its trace.
inline workload::TransformerSpec small_gpt() {
  return gpt("m", 8, 512, 8, 2048, 1000, 256);
}

/// Megatron-LM's parameter count of a GPT with FFN 4h, biases, learned positions and tied embeddings:
/// 12 l h^2 + 13 l h + (V + s) h + 2 h (Narayanan et al., SC'21, section 5.1, with the final LayerNorm).
inline double megatron_gpt_parameters(double layers, double hidden, double vocab, double seq_len) {
  return 12 * layers * hidden * hidden + 13 * layers * hidden + (vocab + seq_len) * hidden + 2 * hidden;
}

/// What a distributed checkpoint writes of shipped GPT-3 1.3B (24 layers, h 2048, V 51200, s 2048:
/// 1,317,654,528 parameters): each tensor once, 2 B of bf16 weights and 12 B of fp32 master weights and
/// Adam moments per parameter, whatever the parallel plan.
inline double gpt3_1_3b_checkpoint_bytes() {
  return 14 * megatron_gpt_parameters(24, 2048, 51200, 2048);
}

}  // namespace zs::test
