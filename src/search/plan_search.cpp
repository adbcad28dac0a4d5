// Tier 1 of `zettasim search`: every candidate plan checked, fitted into memory and estimated; the best kept.
#include "search/plan_search.hpp"

#include <algorithm>
#include <chrono>

#include "core/input_error.hpp"
#include "core/param_reader.hpp"
#include "policy/collective/auto_collective.hpp"

namespace zs::search {
namespace {

/// The plan key a refusal names: the last part of its JSON path.
std::string refused_key(const core::InputError& e) {
  const std::string& path = e.json_path();
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// What a candidate is ranked by under `objective` (smaller is better; the Pareto objective ranks by time).
double objective_value(const PlanEstimate& e, Objective objective) {
  switch (objective) {
    case Objective::kEnergy:
      return e.energy_per_token_j;
    case Objective::kCost:
      return e.cost_per_million_tokens_usd.value_or(0.0);
    case Objective::kTime:
    case Objective::kPareto:
      break;
  }
  return e.iteration_s;
}

/// The Pareto objective's second axis: cost per token when the scenario gives costs, else energy.
double second_axis(const PlanEstimate& e) {
  return e.cost_per_million_tokens_usd.value_or(e.energy_per_token_j);
}

bool better(const Candidate& a, const Candidate& b) {
  return a.objective != b.objective ? a.objective < b.objective : a.index < b.index;
}

/// The best candidates seen, at most `keep` (pruned in batches), and the Pareto front of time against the
/// second axis.
class Kept {
 public:
  explicit Kept(size_t keep) : keep_(std::max<size_t>(keep, 1)) {}
  void add(const Candidate& c) {
    best_.push_back(c);
    if (best_.size() >= 2 * keep_) prune();
    add_to_front(c);
  }
  std::vector<Candidate> best() {
    prune();
    std::sort(best_.begin(), best_.end(), better);
    return best_;
  }
  std::vector<Candidate> front() const {
    std::vector<Candidate> out = front_;
    std::sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      return a.estimate.iteration_s != b.estimate.iteration_s
                 ? a.estimate.iteration_s < b.estimate.iteration_s
                 : a.index < b.index;
    });
    return out;
  }

 private:
  void prune() {
    if (best_.size() <= keep_) return;
    std::nth_element(best_.begin(), best_.begin() + long(keep_), best_.end(), better);
    best_.resize(keep_);
  }
  void add_to_front(const Candidate& c) {
    const double t = c.estimate.iteration_s, y = second_axis(c.estimate);
    for (const auto& f : front_)
      if (f.estimate.iteration_s <= t && second_axis(f.estimate) <= y) return;  // dominated (or equal)
    std::erase_if(front_, [&](const Candidate& f) {
      return t <= f.estimate.iteration_s && y <= second_axis(f.estimate);
    });
    front_.push_back(c);
  }
  size_t keep_;
  std::vector<Candidate> best_, front_;
};

}  // namespace

const core::ChoiceNames<Objective>& objectives() {
  static const core::ChoiceNames<Objective> names{{Objective::kTime, "time"},
                                                  {Objective::kEnergy, "energy"},
                                                  {Objective::kCost, "cost"},
                                                  {Objective::kPareto, "pareto"}};
  return names;
}

nlohmann::json plan_keys(const nlohmann::json& base_plan, const PlanChoice& choice) {
  nlohmann::json keys = base_plan;
  keys.erase("microbatch_group");  // both follow from the pipeline: its defaults apply
  keys.erase("layers_per_stage");
  keys.update(choice.workload_keys());
  if (choice.recompute == workload::Recompute::kFull) {
    keys["recompute_method"] = "uniform";
    keys["recompute_layers"] = 1;
  } else {
    keys.erase("recompute_method");
    keys.erase("recompute_layers");
  }
  return keys;
}

workload::ParallelPlan plan_of(const SearchInputs& in, const PlanChoice& choice) {
  const nlohmann::json keys = plan_keys(in.base_plan, choice);  // the reader refers to it
  core::ParamReader reader(workload::ParallelPlan::params(), core::JsonObject(keys, in.file, "/workload"));
  workload::ParallelPlan plan = workload::ParallelPlan::from_params(reader, *in.model, in.files);
  reader.finish();
  return plan;
}

PlanChoice choice_of(const workload::ParallelPlan& p, uint32_t collective) {
  PlanChoice c;
  c.tensor_parallel = p.tensor_parallel;
  c.pipeline_parallel = p.pipeline_parallel;
  c.virtual_stages = p.chunks();
  c.context_parallel = p.context_parallel;
  c.data_parallel = p.data_parallel;
  c.expert_parallel = p.expert_parallel;
  c.expert_tensor_parallel = p.expert_tensor_parallel;
  c.micro_batch = p.micro_batch;
  c.global_batch = p.global_batch;
  c.zero_stage = p.zero_stage;
  c.recompute = p.recompute;
  c.schedule = p.schedule;
  c.sequence_parallel = p.sequence_parallel;
  c.overlap_gradient_reduction = p.overlap_gradient_reduction;
  c.overlap_parameter_gather = p.overlap_parameter_gather;
  c.overlap_tensor_communication = p.overlap_tensor_communication;
  c.overlap_pipeline_exchanges = p.overlap_pipeline_exchanges;
  c.overlap_expert_communication = p.overlap_expert_communication;
  c.collective = collective;
  return c;
}

std::optional<PlanEstimate> estimate_plan(const SearchInputs& in, const workload::ParallelPlan& plan,
                                          const std::string& collective) {
  const auto alternatives =
      policy::AutoCollective::candidates_of(in.policies->collective, in.collective_options);
  const auto policy =
      policy::make_collective_policy(in.policies->collective, collective, in.collective_options);
  CollectiveEstimator collectives(*in.machine, *policy, alternatives, in.collective_options.protocol);
  PlanEstimator estimator(*in.model, *in.machine, in.ranks, in.stack, in.cost);
  if (estimator.memory(plan) > estimator.capacity()) return std::nullopt;
  return estimator.estimate(plan, collectives, 0);
}

Tier1Result run_tier1(const SearchInputs& in, const SearchSpace& space, Objective objective, size_t keep,
                      double budget_s, core::ProgressSink* progress) {
  if (objective == Objective::kCost && in.cost == nullptr)
    throw core::InputError(
        "--objective", "",
        "the cost objective needs the scenario's \"cost\" section (" + in.file + " has none)");
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  const auto alternatives =
      policy::AutoCollective::candidates_of(in.policies->collective, in.collective_options);
  std::vector<std::unique_ptr<policy::CollectivePolicy>> policies;
  std::vector<std::unique_ptr<CollectiveEstimator>> estimators;
  for (const auto& name : space.collective)
    policies.push_back(policy::make_collective_policy(in.policies->collective, name, in.collective_options));
  for (const auto& p : policies)
    estimators.push_back(
        std::make_unique<CollectiveEstimator>(*in.machine, *p, alternatives, in.collective_options.protocol));
  PlanEstimator estimator(*in.model, *in.machine, in.ranks, in.stack, in.cost);
  Tier1Result out;
  Kept kept(keep);
  const double total = space.combinations();
  space.enumerate([&](const PlanChoice& choice, uint64_t looked_at) {
    const uint64_t index = out.candidates++;
    if (progress != nullptr && index % 1024 == 0)
      progress->report({double(looked_at), total, "combinations"});
    if (budget_s > 0 && index % 256 == 0 && elapsed() > budget_s) {
      out.budget_reached = true;
      return false;
    }
    workload::ParallelPlan plan;
    try {
      plan = plan_of(in, choice);
    } catch (const core::InputError& e) {
      ++out.refused;
      ++out.refused_by[refused_key(e)];
      return true;
    }
    if (in.admissible && !in.admissible(plan)) {
      ++out.refused;
      ++out.refused_by[in.admissible_rule];
      return true;
    }
    if (estimator.memory(plan) > estimator.capacity()) {
      ++out.too_large;
      return true;
    }
    ++out.estimated;
    Candidate c{index, choice, estimator.estimate(plan, *estimators[choice.collective], choice.collective), 0};
    c.objective = objective_value(c.estimate, objective);
    kept.add(c);
    return true;
  });
  out.ranked = kept.best();
  for (const auto& c : kept.front()) out.pareto.push_back(c.index);
  if (objective == Objective::kPareto) {  // the front first, then the rest by time
    std::vector<Candidate> front = kept.front();
    for (const auto& c : out.ranked)
      if (std::find(out.pareto.begin(), out.pareto.end(), c.index) == out.pareto.end()) front.push_back(c);
    out.ranked = std::move(front);
  }
  out.probes = estimator.probes();
  for (const auto& e : estimators) out.patterns += e->patterns();
  out.seconds = elapsed();
  return out;
}

}  // namespace zs::search
