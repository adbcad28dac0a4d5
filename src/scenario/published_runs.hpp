// Validation against published training runs: each run a scenario file, its published iteration time, the
// comparison and the scaling series.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_kind.hpp"
#include "core/file_source.hpp"
#include "scenario/error_summary.hpp"
#include "scenario/run_override.hpp"

namespace zs::scenario {

/// One published run: the scenario that enters its configuration as published, and what it measured.
struct PublishedRun {
  std::string name;                  ///< e.g. "gpt3-175b-h100-1024"
  std::string scenario;              ///< path of its scenario file, resolved against the validation file
  double published_iteration_s = 0;  ///< seconds per iteration (training step), as published
  std::string hardware;              ///< e.g. "H100 SXM": the generation the run used
  bool moe = false;                  ///< a mixture-of-experts model
  std::string source;                ///< where the figure and the configuration are published
};

/// Runs whose per-GPU throughput the publication compares over GPU counts (weak or strong scaling): the
/// efficiency from the first to the last is (tokens / (time x GPUs)) at the last over the same at the first.
struct ScalingSeries {
  std::string name;
  std::vector<std::string> runs;  ///< names of runs, fewest GPUs first; at least two
};

/// A validation file of kind "published-runs".
struct PublishedRunsSpec {
  std::string file;
  std::string name;
  std::string description;
  std::string mechanisms;  ///< which modelled mechanisms the scenarios switch on, as the file states it
  std::vector<PublishedRun> runs;
  std::vector<ScalingSeries> scaling;
  double row_tolerance = 0;   ///< largest accepted |predicted / published throughput - 1| per run
  double mean_tolerance = 0;  ///< largest accepted mean of those
  double scaling_tolerance =
      0;  ///< largest accepted |predicted - published efficiency| (fraction, 0.05 = 5 points)
  /// Set in every run's scenario before it runs (not read from the file); empty: the runs as the file has
  /// them.
  std::vector<RunOverride> overrides;

  /// Reads the file; problems are InputErrors naming the file and JSON path. Scenario files are read when
  /// the runs run, not here.
  static PublishedRunsSpec load(const core::FileSource& files, const std::string& path);
};

/// The kind of a validation file ("validation" or "published-runs"), read without checking the rest.
core::FileKind validation_kind(const core::FileSource& files, const std::string& path);

/// Where a predicted iteration's time went on its critical rank (the one that finished last): six parts
/// that add up to the iteration time, each counted where no part before it is active.
struct PredictedBreakdown {
  double compute_s = 0;                ///< a compute op running, s
  double exposed_communication_s = 0;  ///< a collective's transfers under way, no compute, s
  double pipeline_bubble_s = 0;        ///< waiting on a pipeline transfer, s
  double memory_stall_s = 0;           ///< a memory move in flight, nothing above, s
  double collective_wait_s = 0;        ///< in a collective before its last member joined, nothing above, s
  double idle_s = 0;                   ///< the rest, s
};

/// What one run gave: a prediction, or why there is none.
struct PublishedRunResult {
  PublishedRun run;
  std::optional<double> predicted_iteration_s;
  uint64_t gpus = 0;                ///< ranks of the run's job
  double tokens_per_iteration = 0;  ///< tokens the job trains on per iteration
  std::string failure;              ///< set when there is no prediction
  PredictedBreakdown breakdown;     ///< with a prediction: where its time went
  /// A Megatron plan's model layers over its pipeline stages (a stage's mean, layers), and micro-batches per
  /// replica and iteration; both 0 for a workload that is not a Megatron plan.
  double layers_per_stage = 0;
  uint32_t micro_batches = 0;
  double model_flops = 0;  ///< the model's FLOPs per iteration, all ranks (Megatron-LM's count), FLOP
  /// Predicted over published throughput, minus 1 (positive: predicted faster); precondition: predicted.
  double error() const { return run.published_iteration_s / *predicted_iteration_s - 1.0; }
  /// Published minus predicted seconds per iteration: the time the simulation does not account for when
  /// positive, s; precondition: predicted.
  double unaccounted_s() const { return run.published_iteration_s - *predicted_iteration_s; }
  /// The model's FLOPs per GPU over `seconds`: a model FLOP rate per GPU, FLOP/s.
  double model_flop_rate(double seconds) const { return model_flops / double(gpus) / seconds; }
};

/// One scaling series' efficiency, published and predicted.
struct ScalingResult {
  ScalingSeries series;
  std::optional<double> published;  ///< absent when a run of the series has no prediction
  std::optional<double> predicted;
  bool holds = false;  ///< both known and within the tolerance
};

struct PublishedRunsSummary : ErrorSummary {
  std::vector<ScalingResult> scaling;
  bool passed = false;  ///< every row predicted and within, the mean within, every series within
};

/// Throughput per GPU at `last` over that at `first`: (tokens / (seconds x GPUs)) ratio.
double scaling_efficiency(double first_tokens, double first_s, uint64_t first_gpus, double last_tokens,
                          double last_s, uint64_t last_gpus);

PublishedRunsSummary summarize(const PublishedRunsSpec& spec, const std::vector<PublishedRunResult>& results);

}  // namespace zs::scenario
