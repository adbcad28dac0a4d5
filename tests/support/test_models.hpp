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

}  // namespace zs::test
