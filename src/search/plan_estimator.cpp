// Tier 1 of a plan search: a plan's memory and a fast estimate of its iteration from the same models.
#include "search/plan_estimator.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include "workload/adam_step.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/memory_accounting.hpp"
#include "workload/mesh_axes.hpp"
#include "workload/plan_layout.hpp"

namespace zs::search {
namespace {

using workload::CollectiveKind;
using workload::ParallelPlan;

enum Pass { kForward = 0, kBackward = 1 };

/// Other groups of a communicator routed to see what they share with the first (CopyContention).
constexpr uint64_t kSampledGroups = 31;

/// The layer index an op name of a probe names ("mb0/layer1/moe/..."), if any.
std::optional<uint32_t> layer_of(const std::string& name) {
  const size_t at = name.find("/layer");
  if (at == std::string::npos) return std::nullopt;
  uint32_t layer = 0;
  size_t i = at + 6;
  if (i >= name.size() || !std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
  for (; i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])); ++i)
    layer = layer * 10 + uint32_t(name[i] - '0');
  return layer;
}

/// The probe's plan: the candidate's layer shape with one micro-batch, no pipeline and no
/// data-parallel overlap, on as few replicas as its expert parallelism allows.
ParallelPlan probe_plan(const ParallelPlan& plan, uint32_t layers) {
  ParallelPlan p = plan;
  p.pipeline_parallel = 1;
  p.virtual_stages = 1;
  p.schedule = workload::PipelineSchedule::k1F1B;
  p.microbatch_group = 0;
  p.layers_per_stage.clear();
  p.data_parallel = plan.expert_parallel;
  p.global_batch = p.data_parallel * p.micro_batch;
  p.overlap_expert_communication = false;
  p.overlap_pipeline_exchanges = false;
  p.batched_exchanges = false;
  p.overlap_gradient_reduction = false;
  p.overlap_parameter_gather = false;
  p.gradient_compression = {};
  p.recompute_layers = std::min(p.recompute_layers, layers);
  return p;
}

/// Layers of the even split's virtual stage `vs` (of `virtual_stages`) among the first `dense` layers,
/// and beyond them.
std::pair<uint32_t, uint32_t> dense_and_moe(uint32_t layers, uint32_t virtual_stages, uint32_t vs,
                                            uint32_t dense) {
  const uint32_t per = layers / virtual_stages;
  const uint32_t first = vs * per, end = first + per;
  const uint32_t d = end <= dense ? per : (first >= dense ? 0 : dense - first);
  return {d, per - d};
}

}  // namespace

std::string PlanEstimate::limit() const {
  const double compute = iteration_s - bubble_s - pipeline_exchange_s - data_parallel_s - optimizer_s;
  const double communication = stage_s > 0 ? compute * stage_communication_s / stage_s : 0.0;
  const std::pair<double, const char*> parts[] = {{compute - communication, "compute"},
                                                  {communication, "tensor/context/expert communication"},
                                                  {bubble_s, "pipeline bubble"},
                                                  {pipeline_exchange_s, "pipeline exchanges"},
                                                  {data_parallel_s, "data-parallel communication"},
                                                  {optimizer_s, "optimizer"}};
  return std::max_element(std::begin(parts), std::end(parts))->second;
}

nlohmann::json PlanEstimate::to_json() const {
  nlohmann::json j = {{"iteration_time_s", iteration_s},
                      {"stage_micro_batch_s", stage_s},
                      {"stage_communication_s", stage_communication_s},
                      {"bubble_s", bubble_s},
                      {"pipeline_exchange_s", pipeline_exchange_s},
                      {"data_parallel_exposed_s", data_parallel_s},
                      {"optimizer_s", optimizer_s},
                      {"memory_per_rank_bytes", memory_bytes},
                      {"tokens_per_second", tokens_per_s},
                      {"mfu", mfu},
                      {"energy_per_iteration_j", energy_j},
                      {"energy_per_token_j", energy_per_token_j},
                      {"limit", limit()}};
  if (cost_per_million_tokens_usd) j["cost_per_million_tokens_usd"] = *cost_per_million_tokens_usd;
  return j;
}

PlanEstimator::PlanEstimator(const workload::TransformerSpec& model, const topology::Machine& machine,
                             uint64_t ranks, workload::StackCosts stack, const topology::CostSetting* cost)
    : model_(model), machine_(machine), ranks_(ranks), stack_(stack), cost_(cost) {
  const auto& all = machine.topology.units();
  units_.assign(all.begin(), all.begin() + long(std::min<uint64_t>(ranks, all.size())));
  unit_ = &machine.unit_model(units_.front());
  capacity_ = std::numeric_limits<double>::max();
  std::vector<bool> seen(machine.unit_models.size(), false);
  for (auto u : units_) {
    const uint32_t m = machine.topology.node(u).model;
    if (seen[m]) continue;
    seen[m] = true;
    capacity_ = std::min(capacity_, machine.unit_models[m].hbm_capacity().value());
  }
  power_ = topology::machine_power(machine);
}

double PlanEstimator::memory(const ParallelPlan& plan) const {
  double most = 0;
  for (uint32_t stage : {0u, plan.pipeline_parallel - 1}) {  // the first holds the most in flight
    most = std::max(most, workload::stage_footprint(model_, plan, stage).total().value());
    if (plan.pipeline_parallel == 1) break;
  }
  return most;
}

const GroupUnits& PlanEstimator::group_units(const ParallelPlan& plan, const std::string& name) {
  std::string key = name;
  for (uint32_t v : {plan.tensor_parallel, plan.context_parallel, plan.pipeline_parallel, plan.data_parallel,
                     plan.expert_parallel, plan.expert_tensor_parallel, uint32_t(plan.fp8_amax_reduction)})
    key += "/" + std::to_string(v);
  auto [it, added] = groups_.try_emplace(key);
  GroupUnits& out = it->second;
  if (!added) return out;
  const workload::PlanLayout layout = workload::layout_of(model_, plan);
  workload::Trace skeleton;
  skeleton.mesh = layout.mesh;
  skeleton.communicators = layout.communicators;
  const auto groups = skeleton.groups_of(name);
  if (!groups) return out;
  for (uint64_t rank : groups->members(0)) out.first.push_back(units_.at(rank));
  const uint64_t count = groups->count();
  const uint64_t ranks = skeleton.mesh.size();
  std::vector<uint64_t> picked;
  for (uint64_t j = 1; j < 4 * kSampledGroups && picked.size() < kSampledGroups && count > 1; ++j) {
    const uint64_t rank = j * ranks / (4 * kSampledGroups);
    const auto g = groups->index(rank);
    if (!g || *g == 0 || std::find(picked.begin(), picked.end(), *g) != picked.end()) continue;
    picked.push_back(*g);
    out.others.emplace_back();
    for (uint64_t r : groups->members(rank)) out.others.back().push_back(units_.at(r));
  }
  if (!picked.empty()) out.weight = double(count - 1) / double(picked.size());
  out.hash = hash_of(out);
  return out;
}

PlanEstimator::LayerCosts PlanEstimator::probe(const ParallelPlan& plan, CollectiveEstimator& collectives) {
  workload::TransformerSpec m = model_;
  const bool has_dense = !m.moe || m.moe->dense_layers > 0;
  const bool has_moe = m.moe && m.moe->dense_layers < m.layers;
  m.layers = uint32_t(has_dense) + uint32_t(has_moe);
  if (m.moe) m.moe->dense_layers = has_dense ? 1 : 0;
  const workload::StackCosts layer_stack{stack_.per_layer_pass, stack_.per_moe_layer_forward,
                                         core::Seconds(0.0), core::Seconds(0.0)};
  const workload::Trace trace = workload::generate_megatron_trace(m, probe_plan(plan, m.layers),
                                                                  workload::kMaxGeneratedOps, layer_stack);
  LayerCosts out;
  for (const auto& op : trace.roles.front().ops) {
    if (op.stream != 0) continue;  // the compute stream (StageBuilder::kCompute)
    const bool forward = op.phase == "forward";
    if (!forward && op.phase != "backward" && op.phase != "recompute") continue;
    double seconds = 0;
    bool communication = false;
    if (const auto* c = std::get_if<workload::ComputeOp>(&op.body)) {
      seconds = c->duration
                    ? c->duration->value()
                    : unit_->compute_time({c->flops, c->bytes, c->dtype, c->kind, c->kernels}).value();
    } else if (const auto* c = std::get_if<workload::CollectiveOp>(&op.body)) {
      seconds = collectives.collective(c->kind, c->bytes.value(), group_units(plan, c->communicator));
      communication = true;
    }
    const int pass = forward ? kForward : kBackward;
    const auto layer = layer_of(op.name);
    double& total = layer ? out.layer[m.is_moe_layer(*layer) ? 1 : 0][pass] : out.extras[pass];
    total += seconds;
    if (communication)
      (layer ? out.layer_communication[m.is_moe_layer(*layer) ? 1 : 0][pass]
             : out.extras_communication[pass]) += seconds;
  }
  return out;
}

const PlanEstimator::LayerCosts& PlanEstimator::layer_costs(const ParallelPlan& plan,
                                                            CollectiveEstimator& collectives,
                                                            uint32_t policy) {
  const bool block = plan.recompute == workload::Recompute::kFull &&
                     plan.recompute_method == workload::RecomputeMethod::kBlock;
  const uint32_t per_virtual_stage = model_.layers / (plan.pipeline_parallel * plan.chunks());
  // The key is the layer shape (with the data-parallel degree only where fp8 amaxes are reduced over it,
  // and whether experts have replicas): the data-parallel and pipeline degrees are left out, so a shape's
  // costs, with the communicators' other groups as the first plan of that shape the enumeration meets has
  // them, serve every plan of the shape (an approximation of their contention; the order is fixed, so the
  // result is the same on every run).
  std::string key = std::to_string(policy);
  for (uint32_t v :
       {plan.tensor_parallel, plan.context_parallel, plan.expert_parallel, plan.expert_tensor_parallel,
        plan.micro_batch, uint32_t(plan.recompute), uint32_t(plan.recompute_method), plan.recompute_layers,
        block ? per_virtual_stage : 0u, uint32_t(plan.sequence_parallel), uint32_t(plan.fp8),
        uint32_t(plan.flash_attention), uint32_t(plan.overlap_tensor_communication),
        plan.fp8_amax_reduction ? plan.data_parallel : 0u,
        plan.data_parallel / plan.expert_parallel > 1 ? 1u : 0u})
    key += "/" + std::to_string(v);
  auto it = layer_costs_.find(key);
  if (it != layer_costs_.end()) return it->second;
  LayerCosts costs;
  if (!block) {
    costs = probe(plan, collectives);
  } else {  // the first recompute_layers of each virtual stage recomputed, the others not
    ParallelPlan full = plan, none = plan;
    full.recompute_method = workload::RecomputeMethod::kUniform;
    full.recompute_layers = 1;
    none.recompute = workload::Recompute::kNone;
    const LayerCosts a = probe(full, collectives), b = probe(none, collectives);
    const double share = double(std::min(plan.recompute_layers, per_virtual_stage)) / per_virtual_stage;
    auto blend = [&](double x, double y) { return share * x + (1 - share) * y; };
    for (int k = 0; k < 2; ++k)
      for (int p = 0; p < 2; ++p) {
        costs.layer[k][p] = blend(a.layer[k][p], b.layer[k][p]);
        costs.layer_communication[k][p] = blend(a.layer_communication[k][p], b.layer_communication[k][p]);
      }
    for (int p = 0; p < 2; ++p) {
      costs.extras[p] = blend(a.extras[p], b.extras[p]);
      costs.extras_communication[p] = blend(a.extras_communication[p], b.extras_communication[p]);
    }
  }
  return layer_costs_.emplace(key, costs).first->second;
}

std::pair<double, double> PlanEstimator::sharded_layer_communication(const ParallelPlan& plan,
                                                                     CollectiveEstimator& c) {
  const double gradient = core::bytes_per_element(plan.gradients_in(model_));
  const double weight = core::bytes_per_element(model_.dtype);
  const GroupUnits& dense = group_units(plan, workload::axis_names::kData);
  const uint32_t first_moe = model_.moe ? std::min(model_.moe->dense_layers, model_.layers - 1) : 0;
  double out[2] = {0, 0};
  for (int kind = 0; kind < 2; ++kind) {
    const workload::LayerBlocks b = workload::layer_blocks(model_, plan, kind == 0 ? 0 : first_moe);
    for (double block : {b.attention, b.rest})
      out[kind] += 2 * c.collective(CollectiveKind::kAllGather, block * weight, dense) +
                   c.collective(CollectiveKind::kReduceScatter, block * gradient, dense);
  }
  return {out[0], out[1]};
}

std::pair<double, double> PlanEstimator::after_backward(const ParallelPlan& plan, uint32_t stage,
                                                        double forward_s, double backward_s,
                                                        const LayerCosts& costs, CollectiveEstimator& c) {
  const workload::StageParameters params = workload::stage_parameters(model_, plan, stage);
  const double gradient = core::bytes_per_element(plan.gradients_in(model_));
  const double weight = core::bytes_per_element(model_.dtype);
  const GroupUnits& dense_units = group_units(plan, workload::axis_names::kData);
  const GroupUnits& expert_units = group_units(plan, workload::axis_names::kExpertReplicas);
  auto both = [&](CollectiveKind kind, double element) {
    return c.collective(kind, params.dense * element, dense_units) +
           c.collective(kind, params.experts * element, expert_units);  // none: no expert replicas
  };
  const uint32_t layers = std::max(1u, model_.layers / plan.pipeline_parallel);
  const double micro_batches = plan.micro_batches();
  double exposed = 0;
  if (plan.zero_stage == 3) {  // per layer and micro-batch: what the layer's compute does not hide
    const auto [dense_layer, moe_layer] = sharded_layer_communication(plan, c);
    const uint32_t dense = model_.moe ? model_.moe->dense_layers : model_.layers;
    double per_micro_batch = 0;
    for (uint32_t chunk = 0; chunk < plan.chunks(); ++chunk) {
      const auto [d, m] = dense_and_moe(model_.layers, plan.pipeline_parallel * plan.chunks(),
                                        chunk * plan.pipeline_parallel + stage, dense);
      per_micro_batch +=
          d * std::max(0.0, dense_layer - costs.layer[0][kForward] - costs.layer[0][kBackward]) +
          m * std::max(0.0, moe_layer - costs.layer[1][kForward] - costs.layer[1][kBackward]);
    }
    exposed = micro_batches * per_micro_batch;
  } else {
    const double reduce = plan.zero_stage == 0 ? both(CollectiveKind::kAllReduce, gradient)
                                               : both(CollectiveKind::kReduceScatter, gradient);
    const double gather = plan.zero_stage == 0 ? 0.0 : both(CollectiveKind::kAllGather, weight);
    if (plan.zero_stage == 2) exposed += (micro_batches - 1) * std::max(0.0, reduce - backward_s);
    exposed += plan.overlap_gradient_reduction ? std::max(reduce / layers, reduce - backward_s) : reduce;
    exposed += plan.overlap_parameter_gather ? std::max(gather / layers, gather - forward_s) : gather;
  }
  const double dense_shard = plan.zero_stage >= 1 ? plan.dense_replicas() : 1.0;
  const double expert_shard = plan.zero_stage >= 1 ? plan.expert_replicas() : 1.0;
  const workload::ComputeOp adam =
      workload::adam_step(params.dense / dense_shard + params.experts / expert_shard, gradient,
                          plan.precision(model_).moment_bytes());
  const double optimizer =
      unit_->compute_time({adam.flops, adam.bytes, adam.dtype, adam.kind, adam.kernels}).value();
  return {exposed, optimizer};
}

PlanEstimate PlanEstimator::estimate(const ParallelPlan& plan, CollectiveEstimator& collectives,
                                     uint32_t policy) {
  const LayerCosts& costs = layer_costs(plan, collectives, policy);
  const uint32_t pp = plan.pipeline_parallel, v = plan.chunks();
  const uint32_t dense = model_.moe ? model_.moe->dense_layers : model_.layers;
  PlanEstimate e;
  double slowest = 0, sum = 0, slowest_forward = 0, slowest_backward = 0, first_compute = 0;
  for (uint32_t s = 0; s < pp; ++s) {
    double pass[2] = {0, 0}, communication = 0;
    for (uint32_t chunk = 0; chunk < v; ++chunk) {
      const auto [d, moe] = dense_and_moe(model_.layers, pp * v, chunk * pp + s, dense);
      for (int p : {kForward, kBackward}) {
        pass[p] += d * costs.layer[0][p] + moe * costs.layer[1][p];
        communication += d * costs.layer_communication[0][p] + moe * costs.layer_communication[1][p];
      }
    }
    for (int p : {kForward, kBackward}) {
      pass[p] += stack_.per_step.value() * v;
      if (s + 1 == pp) {
        pass[p] += costs.extras[p];
        communication += costs.extras_communication[p];
      }
    }
    const double stage = pass[kForward] + pass[kBackward];
    if (s == 0) first_compute = stage - communication;
    sum += stage;
    if (stage > slowest) {
      slowest = stage;
      slowest_forward = pass[kForward];
      slowest_backward = pass[kBackward];
      e.stage_communication_s = communication;
    }
  }
  const double m = plan.micro_batches();
  e.stage_s = slowest;
  e.bubble_s = (sum - slowest) / v;
  if (pp > 1) {
    const double bytes = double(plan.micro_batch) * model_.seq_len / plan.context_parallel * model_.hidden /
                         plan.tensor_parallel * core::bytes_per_element(model_.dtype);
    double exchange = collectives.transfer(bytes, units_[0], units_.at(ranks_ / pp));
    if (!plan.sequence_parallel && plan.tensor_parallel > 1)
      exchange += collectives.collective(CollectiveKind::kAllGather, bytes * plan.tensor_parallel,
                                         group_units(plan, workload::axis_names::kTensor));
    const double steps = 2.0 * (double(pp) * v - 1) + (plan.batched_exchanges ? 2.0 * m * v : 0.0);
    e.pipeline_exchange_s = steps * exchange;
  }
  double tail = 0;
  for (uint32_t s : {0u, pp - 1}) {
    const auto [exposed, optimizer] =
        after_backward(plan, s, slowest_forward, slowest_backward, costs, collectives);
    if (exposed + optimizer >= tail) {
      tail = exposed + optimizer;
      e.data_parallel_s = exposed;
      e.optimizer_s = optimizer;
    }
  }
  e.iteration_s = m * slowest + e.bubble_s + e.pipeline_exchange_s + tail + stack_.per_iteration.value();
  e.memory_bytes = memory(plan);
  const double tokens = double(plan.global_batch) * model_.seq_len;
  e.tokens_per_s = tokens / e.iteration_s;
  e.mfu = model_.training_flops(plan.global_batch).value() /
          (e.iteration_s * double(ranks_) * unit_->matrix_peak(model_.dtype).value());
  const double busy = m * first_compute + e.optimizer_s;
  const double load_extra = power_.unit_load_extra.value() / double(machine_.unit_count());
  e.energy_j = topology::machine_energy(power_, core::Seconds(e.iteration_s),
                                        core::Joules(load_extra * double(ranks_) * busy))
                   .total()
                   .value();
  e.energy_per_token_j = e.energy_j / tokens;
  if (cost_ != nullptr)
    e.cost_per_million_tokens_usd =
        topology::run_cost(*cost_, core::Seconds(e.iteration_s), core::Joules(e.energy_j)).total_usd() /
        tokens * 1e6;
  return e;
}

}  // namespace zs::search
