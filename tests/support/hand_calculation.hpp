// The hand calculation of the small data-parallel iteration of support/scenario_files.hpp.
#pragma once

#include "support/test_models.hpp"

namespace zs::test {

/// The model of the hand calculation: 2 layers, h 1024, 8 heads, f 4096, V 1024, s 1024, bf16.
inline workload::TransformerSpec hand_model() {
  return gpt("hand", 2, 1024, 8, 4096, 1024, 1024);
}

/// 4 units at 100 TFLOP/s x 0.5 = 50 TFLOP/s, HBM 2 TB/s, no launch overhead, 100 GB/s links of
/// 1 us to one switch; a 2-layer model (h 1024, f 4096, V 1024, s 1024), 1 sequence per rank.
struct HandCalculation {
  /// NCCL's base latency of a ring all-reduce under Simple, s: what a scenario charges by default (Simple
  /// is the protocol of least estimate at these sizes); 0 for a machine built in code, which charges none.
  double base_latency = 8.4e-6;
  double b = 1, s = 1024, h = 1024, f = 4096, V = 1024, rate = 50e12, hbm = 2e12;
  double layer_fwd = (2 * b * s * (4 * h * h + 2 * h * f) + 4 * b * s * s * h) / rate;  // 601.3 us
  double logits_fwd = 2 * b * s * h * V / rate;                                         // 42.9 us
  /// Forward of 2 layers, logits forward and backward (2x), backward of 2 layers (2x).
  double passes = 2 * layer_fwd + logits_fwd + 2 * logits_fwd + 2 * (2 * layer_fwd);
  double layer_params = 12 * h * h + 13 * h;
  double embedding_params = V * h + s * h + 2 * h;
  double total_params = 2 * layer_params + embedding_params;
  double optimizer = 28 * total_params / hbm;  // memory-bound Adam, 28 B/param: 382 us
  /// Ring all-reduce over 4 ranks: alpha = 2 us (two links, which give no step latency of their own),
  /// B = 100 GB/s, plus `base` (base_latency).
  static double all_reduce(double bytes, double base = 8.4e-6) {
    return base + 2 * 3 * 2e-6 + 2.0 * 3 / 4 * bytes / 100e9;
  }
  double ar_layer1 = all_reduce(2 * layer_params, base_latency);  // bf16 grads: 390 us + base
  double ar_layer0 = all_reduce(2 * (layer_params + embedding_params), base_latency);  // 453 us + base
  /// Layer 1's all-reduce hides under layer 0's backward; layer 0's starts after the last backward
  /// and is fully exposed; the optimizer waits for it.
  double compute = passes + optimizer;
  double exposed = ar_layer0;
  double iteration = compute + exposed;
  double model_flops = 3 * 4 * (2 * layer_fwd + logits_fwd) * rate;  // 4 ranks, forward + 2x backward
  double mfu = model_flops / (iteration * 4 * 100e12);
};

}  // namespace zs::test
