// Token routing to experts: sampling, capacity, all-to-all-v sizes.
#include "workload/expert_routing.hpp"

#include "core/choice_names.hpp"
#include "core/file_kind.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace zs::workload {
namespace {

/// SplitMix64: small, fast, and the same on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace

std::vector<double> ExpertRoutingModel::weights(uint32_t experts) const {
  std::vector<double> w(experts, 1.0);
  if (distribution == Distribution::kZipf) {
    for (uint32_t i = 0; i < experts; ++i) w[i] = 1.0 / std::pow(double(i + 1), zipf_exponent);
  } else if (distribution == Distribution::kHistogram) {
    if (histogram.size() != experts)
      throw std::invalid_argument("the routing histogram has " + std::to_string(histogram.size()) +
                                  " weights for " + std::to_string(experts) + " experts");
    w = histogram;
  }
  double total = 0;
  for (double x : w) {
    if (!(x >= 0) || !std::isfinite(x))
      throw std::invalid_argument("routing weights must be finite and >= 0");
    total += x;
  }
  if (!(total > 0)) throw std::invalid_argument("routing weights must not all be zero");
  for (double& x : w) x /= total;
  return w;
}

namespace {

/// Redraws of one token's experts before sampling from the remaining weight instead. Redrawing keeps the
/// draws of ordinary weights as they are; it would loop without end when chosen experts hold nearly all
/// the weight (a histogram of [1, 1, ..., 1e17]).
constexpr uint32_t kMaxRedraws = 64;

/// An expert drawn by weight among those not in `chosen` and of positive weight (one exists).
uint32_t draw_excluding(const std::vector<double>& p, const std::vector<uint32_t>& chosen, SplitMix64& rng) {
  std::vector<uint32_t> skipped = chosen;
  std::sort(skipped.begin(), skipped.end());
  double remaining = 0;
  for (size_t e = 0; e < p.size(); ++e)
    if (p[e] > 0 && !std::binary_search(skipped.begin(), skipped.end(), uint32_t(e))) remaining += p[e];
  double u = rng.uniform() * remaining;
  for (size_t e = 0; e < p.size(); ++e) {
    if (p[e] <= 0 || std::binary_search(skipped.begin(), skipped.end(), uint32_t(e))) continue;
    if (u < p[e]) return uint32_t(e);
    u -= p[e];
  }
  for (size_t e = p.size(); e-- > 0;)  // rounding left u at the end: the last eligible expert
    if (p[e] > 0 && !std::binary_search(skipped.begin(), skipped.end(), uint32_t(e))) return uint32_t(e);
  return 0;
}

}  // namespace

ExpertAssignment route_tokens(uint64_t tokens, uint32_t experts, uint32_t top_k,
                              const ExpertRoutingModel& model, uint64_t seed) {
  if (experts == 0 || top_k == 0 || top_k > experts)
    throw std::invalid_argument("top_k must be in [1, experts]");
  const std::vector<double> p = model.weights(experts);
  uint32_t positive = 0;
  for (double x : p) positive += x > 0 ? 1 : 0;
  if (positive < top_k) throw std::invalid_argument("fewer experts with positive weight than top_k");
  std::vector<double> cumulative(experts);
  std::partial_sum(p.begin(), p.end(), cumulative.begin());
  SplitMix64 rng(seed);
  ExpertAssignment out;
  out.tokens_per_expert.assign(experts, 0);
  std::vector<uint32_t> chosen;
  for (uint64_t t = 0; t < tokens; ++t) {
    chosen.clear();
    uint32_t redraws = 0;
    while (chosen.size() < top_k) {  // without replacement: redraw an expert already chosen
      if (redraws == kMaxRedraws) {  // a few experts hold nearly all the weight: draw from the rest
        chosen.push_back(draw_excluding(p, chosen, rng));
        continue;
      }
      const double u = rng.uniform() * cumulative.back();
      auto e = static_cast<uint32_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                     cumulative.begin());
      e = std::min(e, experts - 1);
      if (p[e] <= 0 || std::find(chosen.begin(), chosen.end(), e) != chosen.end()) {
        ++redraws;
        continue;
      }
      chosen.push_back(e);
    }
    for (uint32_t e : chosen) ++out.tokens_per_expert[e];
  }
  if (model.capacity_factor > 0) {
    const auto capacity =
        static_cast<uint64_t>(std::ceil(model.capacity_factor * double(tokens) * top_k / double(experts)));
    uint64_t overflow = 0;
    for (auto& n : out.tokens_per_expert)
      if (n > capacity) {
        overflow += n - capacity;
        n = capacity;
      }
    if (model.reroute_overflow) {
      // Fill the least-loaded experts first (lowest index on ties), up to capacity.
      while (overflow > 0) {
        auto least = std::min_element(out.tokens_per_expert.begin(), out.tokens_per_expert.end());
        if (*least >= capacity) break;
        const uint64_t room = capacity - *least;
        // Level the least-loaded expert with the next level, or fill it, one step at a time.
        const uint64_t moved = std::min<uint64_t>(overflow, std::max<uint64_t>(1, room));
        *least += moved;
        overflow -= moved;
        out.rerouted += moved;
      }
    }
    out.dropped = overflow;
  }
  return out;
}

using Distribution = ExpertRoutingModel::Distribution;

const core::ChoiceNames<Distribution>& distributions() {
  static const core::ChoiceNames<Distribution> names{{Distribution::kUniform, "uniform"},
                                                     {Distribution::kZipf, "zipf"},
                                                     {Distribution::kHistogram, "histogram"}};
  return names;
}

/// Whether tokens over an expert's capacity are rerouted (or dropped), by the names files write.
const core::ChoiceNames<bool>& overflow_policies() {
  static const core::ChoiceNames<bool> names{{false, "drop"}, {true, "reroute"}};
  return names;
}

const core::ParamTable& routing_params() {
  using core::Param;
  static const core::ParamTable table(
      "routing", "how a Mixture-of-Experts router spreads tokens over the experts",
      {Param::choice(
           "distribution", distributions().names(),
           "uniform; zipf (expert i chosen with weight 1/(i+1)^exponent); histogram (a weight each)")
           .or_default("uniform"),
       Param::number("exponent", 0.0, 10.0, "the zipf exponent s (distribution zipf)").optional(),
       Param::list("histogram", "non-negative weights, one per routed expert",
                   "the weights inline (distribution histogram; or histogram_file)")
           .optional(),
       Param::text("histogram_file",
                   "an expert histogram file, relative to this file (distribution histogram)")
           .optional(),
       Param::number("capacity_factor", 0.0, 1e6,
                     "each expert takes at most ceil(factor x tokens x top_k / experts) tokens per source "
                     "rank; 0: no limit (left out: the model's capacity_factor)")
           .optional(),
       Param::choice("overflow", overflow_policies().names(),
                     "tokens over capacity are dropped, or rerouted to the least-loaded expert with room")
           .noun("overflow policy")
           .or_default("drop")});
  return table;
}

const core::ParamTable& expert_histogram_params() {
  using core::Param;
  static const core::ParamTable table(
      "expert-histogram", "a file of measured expert loads, named by a routing's histogram_file",
      {Param::file_kind(core::FileKind::kExpertHistogram, "an expert histogram"),
       Param::text("source", "where the loads were measured").optional(),
       Param::list("weights", "non-negative numbers", "one weight per routed expert, in expert order")});
  return table;
}

namespace {

/// One non-negative weight per expert from the array at `key` of `json`.
std::vector<double> read_weights(core::ParamReader& json, const char* key, uint32_t experts) {
  const auto& h = json.list(key);
  if (h.size() != experts)
    throw json.error(key, "expected an array of " + std::to_string(experts) +
                              " non-negative weights, one per routed expert");
  std::vector<double> out;
  for (size_t i = 0; i < h.size(); ++i) {
    if (!h[i].is_number() || h[i].get<double>() < 0)
      throw core::InputError(json.file(), json.element_pointer(key, i), "expected a weight >= 0");
    out.push_back(h[i].get<double>());
  }
  return out;
}

/// The weights of the histogram file named at "histogram_file".
std::vector<double> read_histogram_file(core::ParamReader& json, uint32_t experts,
                                        const core::FileSource* files) {
  if (json.has("histogram"))
    throw json.error("histogram_file", "give the histogram inline or in a file, not both");
  if (files == nullptr)
    throw json.error("histogram_file", "a histogram file cannot be read here; give it inline");
  json.find<std::string>("histogram_file");
  std::string path;
  const nlohmann::json doc = files->read_json_named(json.json(), "histogram_file", path);
  if (!doc.is_object()) throw core::InputError(path, "", "expected a JSON object (an expert histogram)");
  core::ParamReader file(expert_histogram_params(), core::JsonObject(doc, path, ""));
  file.get<std::string>("kind");  // the table's constant
  file.find<std::string>("source");
  auto weights = read_weights(file, "weights", experts);
  file.finish();
  return weights;
}

}  // namespace

ExpertRoutingModel read_routing(core::ParamReader& json, uint32_t experts, double default_capacity,
                                const core::FileSource* files) {
  ExpertRoutingModel r;
  r.distribution = json.get_choice("distribution", distributions());
  if (r.distribution == Distribution::kZipf) {
    r.zipf_exponent = json.need<double>("exponent", "for the zipf distribution");
  } else if (r.distribution == Distribution::kHistogram) {
    const bool in_file = json.has("histogram_file");
    r.histogram =
        in_file ? read_histogram_file(json, experts, files) : read_weights(json, "histogram", experts);
    try {
      r.weights(experts);
    } catch (const std::invalid_argument& e) {
      throw json.error(in_file ? "histogram_file" : "histogram", e.what());
    }
  }
  r.capacity_factor = json.find<double>("capacity_factor").value_or(default_capacity);
  json.record("capacity_factor", r.capacity_factor);
  r.reroute_overflow = json.get_choice("overflow", overflow_policies());
  json.finish();
  return r;
}

nlohmann::json routing_to_json(const ExpertRoutingModel& routing) {
  nlohmann::json j = {{"distribution", distributions().name(routing.distribution)},
                      {"capacity_factor", routing.capacity_factor},
                      {"overflow", overflow_policies().name(routing.reroute_overflow)}};
  if (routing.distribution == ExpertRoutingModel::Distribution::kZipf) j["exponent"] = routing.zipf_exponent;
  if (routing.distribution == ExpertRoutingModel::Distribution::kHistogram)
    j["histogram"] = routing.histogram;
  return j;
}

std::vector<std::vector<uint64_t>> dispatch_matrix(uint32_t ranks, uint64_t tokens_per_rank, uint32_t experts,
                                                   uint32_t top_k, const ExpertRoutingModel& model,
                                                   uint64_t seed) {
  if (ranks == 0 || experts % ranks != 0)
    throw std::invalid_argument("experts (" + std::to_string(experts) + ") are not divisible by the " +
                                std::to_string(ranks) + " expert-parallel ranks");
  const uint32_t per_rank = experts / ranks;
  std::vector<std::vector<uint64_t>> m(ranks, std::vector<uint64_t>(ranks, 0));
  for (uint32_t s = 0; s < ranks; ++s) {
    auto a = route_tokens(tokens_per_rank, experts, top_k, model, seed * 0x100000001b3ull + s);
    for (uint32_t e = 0; e < experts; ++e) m[s][e / per_rank] += a.tokens_per_expert[e];
  }
  return m;
}

std::vector<std::vector<uint64_t>> dispatch_tokens(const ExpertDispatch& d, uint32_t n, uint64_t group) {
  return dispatch_matrix(n, d.tokens, d.experts, d.top_k, d.routing, d.seed * 0x9E3779B97F4A7C15ull + group);
}

DispatchSizes dispatch_sizes(const ExpertDispatch& d, uint32_t n, uint64_t group) {
  return dispatch_sizes_of(dispatch_tokens(d, n, group), d, n);
}

DispatchSizes dispatch_sizes_of(const std::vector<std::vector<uint64_t>>& tokens, const ExpertDispatch& d,
                                uint32_t n) {
  DispatchSizes out{std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0)),
                    std::vector<double>(n, 0.0)};
  const double nominal = double(d.tokens) * d.top_k;
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = 0; b < n; ++b) {
      const double t = double(tokens[a][b]);
      if (d.combine)
        out.peer_bytes[b][a] = t * d.bytes_per_token.value();
      else
        out.peer_bytes[a][b] = t * d.bytes_per_token.value();
      out.load_of_member[b] += nominal > 0 ? t / nominal : 0.0;
    }
  return out;
}

}  // namespace zs::workload
