// Validation against Megatron-LM SC'21: the published rows, the scenario each row runs as, the comparison.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/choice_names.hpp"
#include "core/file_source.hpp"
#include "scenario/error_summary.hpp"
#include "scenario/run_override.hpp"

namespace zs::scenario {

/// How a published row parallelizes: tensor + pipeline + data (PTD-P), or data parallel with ZeRO stage 3.
enum class ValidationScheme { kPtdP, kZero3 };

/// The schemes' names as the rows file writes them: "ptd-p", "zero-3".
const core::ChoiceNames<ValidationScheme>& validation_schemes();

/// One published configuration and its throughput.
struct ValidationRow {
  uint32_t table = 0;         ///< 1 or 2 (the paper's table)
  double params_billion = 0;  ///< as printed
  ValidationScheme scheme = ValidationScheme::kPtdP;
  uint32_t layers = 0, hidden = 0, heads = 0;
  uint32_t tensor_parallel = 1, pipeline_parallel = 1, virtual_stages = 1;
  uint32_t gpus = 0;
  uint64_t global_batch = 0;    ///< sequences per iteration
  uint32_t micro_batch = 0;     ///< sequences per micro-batch
  double published_tflops = 0;  ///< TFLOP/s per GPU (10^12 FLOP/s), end to end
  /// e.g. "table1-1.7B-ptd-p-32gpu"
  std::string name() const;
};

/// A validation file ("kind": "validation"): the rows (a CSV beside it) and the one set of machine and
/// workload parameters every row runs with.
struct ValidationSpec {
  std::string file;
  std::string name;
  std::string description;
  std::string rows_file;
  std::vector<ValidationRow> rows;
  uint32_t units_per_server = 8;
  /// Model bindings of the machine ("gpu", "nvlink", "ib"), as written in the file (relative to it).
  std::map<std::string, std::string> models;
  uint32_t seq_len = 0;  ///< tokens per sequence
  uint32_t vocab = 0;    ///< vocabulary entries
  std::string dtype;
  std::string recompute;
  bool flash_attention = false;
  bool batched_exchanges = false;  ///< Megatron-LM 2021's pipeline exchanges (the plan key of that name)
  std::string fidelity;
  double row_tolerance = 0;   ///< largest accepted |predicted / published - 1| per row
  double mean_tolerance = 0;  ///< largest accepted mean of |predicted / published - 1|
  /// Set in every row's scenario before it runs (not read from the file); empty: the rows as composed.
  std::vector<RunOverride> overrides;

  /// Reads the file and its rows; problems are InputErrors naming the file and JSON path, or the CSV's
  /// line.
  static ValidationSpec load(const core::FileSource& files, const std::string& path);
};

/// The files one row runs as: a scenario (a rail-optimized cluster of ceil(gpus / units_per_server)
/// servers with NVLink inside and one InfiniBand rail per GPU position joined by a spine; the row's GPT
/// model with a 4h FFN; its plan, linear placement, ring collectives), its model and its topology. They
/// sit beside the validation file, so that its model references resolve as written.
struct RowScenario {
  std::string scenario_path;
  std::map<std::string, std::string> files;  ///< path to content, for an OverlayFileSource
};
RowScenario row_scenario(const ValidationSpec& spec, const ValidationRow& row);

/// Megatron-LM's FLOPs per iteration with full recomputation (the paper's eq. 3), FLOP:
/// 96 B s l h^2 (1 + s / (6h) + V / (16 l h)). Published TFLOP/s per GPU is this over time and GPUs.
double megatron_flops_per_iteration(const ValidationRow& row, uint32_t seq_len, uint32_t vocab);

/// What one row gave: a prediction, or why there is none (the configuration does not fit, for example).
struct RowResult {
  ValidationRow row;
  std::optional<double> predicted_tflops;  ///< TFLOP/s per GPU
  double iteration_s = 0;                  ///< simulated iteration time, s
  std::string failure;                     ///< set when there is no prediction
  /// predicted / published - 1; precondition: predicted_tflops.
  double error() const { return *predicted_tflops / row.published_tflops - 1.0; }
};

/// Table 2's trend for one model, over the GPU counts both schemes have a figure for: PTD-P ahead of
/// ZeRO-3 at each, and ZeRO-3 keeping less of its throughput per GPU than PTD-P from the fewest of those
/// GPUs to the most.
struct TrendCheck {
  double params_billion = 0;
  size_t scales = 0;  ///< GPU counts compared (fewer than 2: not checked, does not hold)
  bool holds = false;
  double ptdp_retained = 0;   ///< PTD-P's TFLOP/s per GPU at the most GPUs over the fewest
  double zero3_retained = 0;  ///< ZeRO-3's
};

struct ValidationSummary : ErrorSummary {
  std::vector<TrendCheck> trends;
  bool passed = false;  ///< every row within, the mean within, every trend holds
};

/// Compares the results; `published` instead of predicted throughput when `use_published` (to check
/// that the trend test holds on the paper's own figures).
std::vector<TrendCheck> table2_trends(const std::vector<RowResult>& results, bool use_published);
ValidationSummary summarize(const ValidationSpec& spec, const std::vector<RowResult>& results);

}  // namespace zs::scenario
