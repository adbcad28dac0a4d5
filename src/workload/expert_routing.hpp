// Mixture-of-Experts token routing with imbalance: which experts (and so which ranks) tokens go to.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/file_source.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/units.hpp"

namespace zs::workload {

/// How a router's choices are spread over the experts.
struct ExpertRoutingModel {
  enum class Distribution : uint8_t { kUniform, kZipf, kHistogram };
  Distribution distribution = Distribution::kUniform;
  double zipf_exponent = 1.0;     ///< s: expert i (0-based) is chosen with weight 1 / (i + 1)^s
  std::vector<double> histogram;  ///< kHistogram: one non-negative weight per expert
  /// Capacity of each expert per source rank: ceil(capacity_factor x tokens x top_k / experts); 0: none.
  double capacity_factor = 0;
  bool reroute_overflow = false;  ///< tokens over capacity go to the least-loaded expert with room
                                  ///< (else they are dropped)

  /// Normalized choice probabilities of the experts. Throws std::invalid_argument for a histogram
  /// of the wrong length or with no positive weight.
  std::vector<double> weights(uint32_t experts) const;
  bool operator==(const ExpertRoutingModel&) const = default;
};

/// The keys of a "routing" object (a plan's, or an expert dispatch's in a trace).
const core::ParamTable& routing_params();
/// The keys of an expert histogram file: {"kind": "expert-histogram", "source", "weights": [...]}.
const core::ParamTable& expert_histogram_params();

/// Reads a routing object: distribution uniform (default) | zipf (exponent) | histogram (one weight per
/// expert, inline as `histogram` or in `histogram_file`, resolved against the reader's file and read from
/// `files`), capacity_factor (default `default_capacity`), overflow drop (default) | reroute. Calls
/// finish(); errors name the file and key.
ExpertRoutingModel read_routing(core::ParamReader& json, uint32_t experts, double default_capacity,
                                const core::FileSource* files = nullptr);
nlohmann::json routing_to_json(const ExpertRoutingModel& routing);

/// Where the tokens of one source rank went.
struct ExpertAssignment {
  std::vector<uint64_t> tokens_per_expert;  ///< token-expert pairs each expert processes
  uint64_t dropped = 0;                     ///< pairs over capacity that were dropped
  uint64_t rerouted = 0;                    ///< pairs over capacity sent to another expert
};

/// Routes `tokens` tokens, each to `top_k` distinct experts drawn from the model's distribution
/// (weighted sampling without replacement), then applies the capacity. Deterministic for a seed on
/// every platform (its own SplitMix64 generator, no std:: distributions).
ExpertAssignment route_tokens(uint64_t tokens, uint32_t experts, uint32_t top_k,
                              const ExpertRoutingModel& model, uint64_t seed);

/// The all-to-all-v dispatch sizes in tokens: entry [s][d] is what source rank s sends to rank d, which
/// hosts experts d x experts/ranks .. (d+1) x experts/ranks - 1. Each source routes its own tokens
/// with seed (seed, s). Its row sums to the token-expert pairs it kept.
std::vector<std::vector<uint64_t>> dispatch_matrix(uint32_t ranks, uint64_t tokens_per_rank, uint32_t experts,
                                                   uint32_t top_k, const ExpertRoutingModel& model,
                                                   uint64_t seed);

/// The per-peer sizes of an all-to-all-v that dispatches tokens to experts (or combines them back):
/// every member routes `tokens` tokens to `top_k` of `experts` experts, spread evenly over the
/// members in communicator order, with the routing model's imbalance and capacity. dispatch_sizes draws
/// each group's sizes from `seed` mixed with the group index, so the dispatch and the combine of one
/// layer and micro-batch (same seed) move the same tokens.
struct ExpertDispatch {
  ExpertRoutingModel routing;
  uint64_t tokens = 0;          ///< tokens each member routes
  uint32_t experts = 0;         ///< routed experts over the whole communicator
  uint32_t top_k = 1;           ///< experts per token
  core::Bytes bytes_per_token;  ///< B per token-expert pair
  uint64_t seed = 0;
  bool combine = false;  ///< the way back: member d returns to s what s sent to d
};

/// One group's all-to-all-v: what each member sends each other member, and what each receives.
struct DispatchSizes {
  std::vector<std::vector<double>> peer_bytes;  ///< [s][d]: B member s sends member d
  std::vector<double> load_of_member;           ///< tokens member d receives / the nominal tokens x top_k
};

/// The sizes of `dispatch` over `members` ranks for communicator group `group`: dispatch_matrix drawn
/// with seed (dispatch.seed, group); transposed for a combine.
DispatchSizes dispatch_sizes(const ExpertDispatch& dispatch, uint32_t members, uint64_t group);

/// The token matrix dispatch_sizes draws: dispatch_matrix with seed (dispatch.seed, group).
std::vector<std::vector<uint64_t>> dispatch_tokens(const ExpertDispatch& dispatch, uint32_t members,
                                                   uint64_t group);
/// The sizes of `dispatch` over `members` ranks when its drawn token matrix is `tokens`.
DispatchSizes dispatch_sizes_of(const std::vector<std::vector<uint64_t>>& tokens,
                                const ExpertDispatch& dispatch, uint32_t members);

}  // namespace zs::workload
