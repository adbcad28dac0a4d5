// A stage's pipeline steps and exchanges, and the ops every block uses.
#include "workload/stage_builder.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "workload/combined_step.hpp"
#include "workload/cross_entropy.hpp"
#include "workload/megatron_generator.hpp"
#include "workload/mesh_axes.hpp"
#include "workload/pipeline_exchanges.hpp"

namespace zs::workload {

void StageBuilder::build() {
  params_ = stage_parameters(model_, plan_, stage_);
  const auto steps = plan_.stage_steps(stage_);
  if (plan_.overlap_parameter_gather) gather_parameters();
  if (plan_.batched_exchanges) {
    batched_steps(steps);
  } else if (plan_.overlap_pipeline_exchanges) {
    overlapped_steps(steps);
  } else {
    for (size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].combined_with_next) {
        combined_step(steps[i], steps[i + 1]);
        ++i;
      } else {
        run_step(steps[i], true);
      }
    }
  }
  optimizer();
  program_.memory = stage_footprint(model_, plan_, stage_);
}

uint32_t StageBuilder::add(std::string name, std::string phase, uint32_t stream, std::vector<uint32_t> deps,
                           Body body) {
  if (ops_left_ == 0)
    throw TraceTooLarge("the generated trace would hold more than " + std::to_string(max_ops_) +
                        " ops (one per kernel, transfer and collective of every pipeline stage; layers and "
                        "micro-batches multiply them)");
  --ops_left_;
  if (stream == kCompute && !wait_for_.empty()) {  // a batched exchange's sends, waited for
    deps.insert(deps.end(), wait_for_.begin(), wait_for_.end());
    wait_for_.clear();
  }
  program_.ops.push_back({std::move(name), std::move(phase), stream, std::move(deps), std::move(body)});
  auto id = static_cast<uint32_t>(program_.ops.size() - 1);
  if (stream == kCompute) last_compute_ = id;
  return id;
}

uint32_t StageBuilder::compute(const std::string& name, const std::string& phase, core::Flops flops,
                               double params, std::vector<uint32_t> deps) {
  return add(name, phase, kCompute, std::move(deps),
             ComputeOp{flops, core::Bytes(params * elem()), model_.dtype, core::WorkKind::kMatrix, 1});
}

uint32_t StageBuilder::linear(const std::string& name, const std::string& phase, core::Flops flops,
                              double params, std::vector<uint32_t> deps) {
  return add(name, phase, kCompute, std::move(deps), linear_op(flops, params));
}

void StageBuilder::collective(const std::string& name, const std::string& phase, CollectiveKind kind,
                              const char* comm, core::Bytes bytes) {
  add(name, phase, kCompute, {}, CollectiveOp{kind, comm, bytes});
}

void StageBuilder::tensor_exchange(const std::string& at, const std::string& phase, bool entering) {
  if (plan_.tensor_parallel == 1) return;
  if (sp())
    collective(at + (entering ? "tp-all-gather" : "tp-reduce-scatter"), phase,
               entering ? CollectiveKind::kAllGather : CollectiveKind::kReduceScatter, axis_names::kTensor,
               activations());
  else if (!entering)
    collective(at + "tp-all-reduce", phase, CollectiveKind::kAllReduce, axis_names::kTensor, activations());
}

uint32_t StageBuilder::p2p(const std::string& name, const std::string& phase, P2PDirection dir,
                           int32_t offset, uint32_t stream, std::vector<uint32_t> deps) {
  core::Bytes bytes(tokens() * model_.hidden * elem() / tp());
  return add(name, phase, stream, std::move(deps),
             P2POp{dir, axis_names::kPipeline, offset, bytes, plan_.chunks() > 1});
}

void StageBuilder::loss(const std::string& at, bool forward) {
  const double logits = tokens() * model_.vocab / tp();
  const std::string phase = forward ? "forward" : "backward";
  add(at + "loss/" + phase, phase, kCompute, {},
      loss_step(logits, forward ? kLossForwardBytesPerLogit : kLossBackwardBytesPerLogit));
  if (!forward || plan_.tensor_parallel == 1) return;
  for (const char* value : kLossAllReduces)
    collective(at + "loss/tp-all-reduce-" + value, phase, CollectiveKind::kAllReduce, axis_names::kTensor,
               core::Bytes(tokens() * kLossAllReduceBytesPerToken));
}

void StageBuilder::reduce_amaxes(const std::string& at, bool forward, uint32_t chunk) {
  const std::string phase = forward ? "forward" : "backward";
  if (!layout_.amax_reduction) return;
  double products = 0.0;
  for (uint32_t l : chunk_layers(model_, plan_, stage_, chunk)) products += fp8_products(l);
  const double per_product = forward ? MixedPrecision::kForwardAmaxes : MixedPrecision::kBackwardAmaxes;
  collective(at + "fp8-amax-all-reduce-" + phase, phase, CollectiveKind::kAllReduce, kAmaxGroup,
             core::Bytes(products * per_product * MixedPrecision::kAmaxBytes));
}

uint32_t StageBuilder::fp8_products(uint32_t l) const {
  uint32_t attention = 2;                                           // QKV and output projections
  if (model_.mla) attention = model_.mla->q_lora_rank > 0 ? 5 : 4;  // query, key/value down and up, output
  if (!model_.is_moe_layer(l)) return attention + 2;
  const uint32_t local = model_.moe->experts / plan_.expert_parallel;
  return attention + 2 * local + (model_.moe->shared_experts > 0 ? 2 : 0);
}

void StageBuilder::run_step(const PipelineStep& step, bool exchanges) {
  if (exchanges) step_recv(step);
  step.forward ? forward_step(step.micro_batch, step.chunk) : backward_step(step.micro_batch, step.chunk);
  if (exchanges) step_send(step);
  if (!step.forward && plan_.zero_stage == 2)
    reduce_chunk_gradients(step_prefix(step.micro_batch, step.chunk), step.chunk);
}

void StageBuilder::host_wait(const std::string& name, const std::string& phase, core::Seconds wait) {
  if (wait.value() <= 0) return;
  ComputeOp host{core::Flops(0.0), core::Bytes(0.0), model_.dtype, core::WorkKind::kVector, 0};
  host.duration = wait;
  add(name, phase, kCompute, {}, host);
}

void StageBuilder::forward_step(uint32_t mb, uint32_t chunk) {
  const std::string at = step_prefix(mb, chunk);
  host_wait(at + "host/step", "forward", stack_.per_step);
  for (uint32_t l : chunk_layers(model_, plan_, stage_, chunk)) {
    if (auto gathered = parameter_gathers_.find(l); mb == 0 && gathered != parameter_gathers_.end())
      wait_for_.insert(wait_for_.end(), gathered->second.begin(), gathered->second.end());
    layer_forward(l, mb, layer_prefix(at, l), "forward");
  }
  reduce_amaxes(at, true, chunk);
  if (virtual_stage(chunk) + 1 == virtual_stages()) {
    compute(at + "logits/forward", "forward", model_.logits_forward_flops(plan_.micro_batch) / (tp() * cp()),
            double(model_.vocab) * model_.hidden / tp());
    loss(at, true);
  }
}

void StageBuilder::backward_step(uint32_t mb, uint32_t chunk) {
  const std::string at = step_prefix(mb, chunk);
  host_wait(at + "host/step", "backward", stack_.per_step);
  if (virtual_stage(chunk) + 1 == virtual_stages()) {
    loss(at, false);
    compute(at + "logits/backward", "backward",
            model_.logits_forward_flops(plan_.micro_batch) * 2.0 / (tp() * cp()),
            2.0 * model_.vocab * model_.hidden / tp());
  }
  const auto layers = chunk_layers(model_, plan_, stage_, chunk);
  const auto groups = plan_.recompute_groups(static_cast<uint32_t>(layers.size()));
  std::vector<Bucket> reduced;  // the chunk's last micro-batch reduces its buckets as they are done
  if (plan_.overlap_gradient_reduction && mb + 1 == plan_.micro_batches()) reduced = buckets(chunk);
  for (uint32_t i = static_cast<uint32_t>(layers.size()); i-- > 0;) {
    // Full recomputation reruns a group's forward before the backward of its last layer.
    for (const auto& group : groups)
      if (group.end == i + 1)
        for (uint32_t j = group.first; j < group.end; ++j)
          layer_forward(layers[j], mb, layer_prefix(at, layers[j]) + "recompute/", "recompute");
    layer_backward(layers[i], mb, layer_prefix(at, layers[i]));
    for (const Bucket& b : reduced)
      if (b.first_layer == layers[i]) reduce_bucket(layer_prefix(at, layers[i]), b);
  }
  reduce_amaxes(at, false, chunk);
}

void StageBuilder::batched_steps(const std::vector<PipelineStep>& steps) {
  std::vector<uint32_t> sends;
  for (const StageAction& a : batched_exchange_actions(steps, plan_.chunks())) {
    switch (a.kind) {
      case StageAction::Kind::kCompute:
        run_step(steps[a.step], false);
        break;
      case StageAction::Kind::kSend:
        if (auto id = step_send(steps[a.step])) sends.push_back(*id);
        break;
      case StageAction::Kind::kReceive:
        step_recv(steps[a.step]);
        break;
      case StageAction::Kind::kWait:
        wait_for_ = std::move(sends);
        sends.clear();
        break;
    }
  }
}

std::optional<uint32_t> StageBuilder::step_send(const PipelineStep& step) {
  const std::string at = step_prefix(step.micro_batch, step.chunk);
  const uint32_t vs = virtual_stage(step.chunk);
  if (step.forward && vs + 1 < virtual_stages())
    return p2p(at + "send-activations", "forward", P2PDirection::kSend, +1, kSendNext, {last_compute_});
  if (!step.forward && vs > 0)
    return p2p(at + "send-gradients", "backward", P2PDirection::kSend, -1, kSendPrev, {last_compute_});
  return std::nullopt;
}

std::optional<uint32_t> StageBuilder::receive(const PipelineStep& step, uint32_t stream,
                                              std::vector<uint32_t> deps) {
  const std::string at = step_prefix(step.micro_batch, step.chunk);
  const uint32_t vs = virtual_stage(step.chunk);
  if (step.forward && vs > 0)
    return p2p(at + "recv-activations", "forward", P2PDirection::kRecv, -1, stream, std::move(deps));
  if (!step.forward && vs + 1 < virtual_stages())
    return p2p(at + "recv-gradients", "backward", P2PDirection::kRecv, +1, stream, std::move(deps));
  return std::nullopt;
}

std::optional<uint32_t> StageBuilder::step_recv(const PipelineStep& step) {
  auto id = receive(step, kCompute, {});
  if (id) receive_gather(step);
  return id;
}

std::optional<uint32_t> StageBuilder::post_receive(const PipelineStep& step) {
  std::vector<uint32_t> deps;  // none before the stage's first compute op
  if (last_compute_ < program_.ops.size() && program_.ops[last_compute_].stream == kCompute)
    deps.push_back(last_compute_);
  return receive(step, receive_streams(plan_) + (step.forward ? 0 : 1), std::move(deps));
}

void StageBuilder::receive_gather(const PipelineStep& step) {
  if (plan_.tensor_parallel == 1 || sp()) return;
  const uint32_t vs = virtual_stage(step.chunk);
  if (step.forward ? vs == 0 : vs + 1 == virtual_stages()) return;
  const std::string at = step_prefix(step.micro_batch, step.chunk);
  const char* name = step.forward ? "recv-activations" : "recv-gradients";
  collective(at + name + "/tp-all-gather", step.forward ? "forward" : "backward", CollectiveKind::kAllGather,
             axis_names::kTensor, activations());
}

namespace {

/// The next step after `i` in the same direction (forward or backward), if any.
std::optional<size_t> next_in_direction(const std::vector<PipelineStep>& steps, size_t i) {
  for (size_t j = i + 1; j < steps.size(); ++j)
    if (steps[j].forward == steps[i].forward) return j;
  return std::nullopt;
}

/// Where Megatron-Core posts the first backward's receive ahead: after the last warm-up forward, the
/// step two before it, when a steady state follows (a forward after the first backward).
std::optional<size_t> first_backward_posted_after(const std::vector<PipelineStep>& steps) {
  size_t first = 0;
  while (first < steps.size() && steps[first].forward) ++first;
  if (first < 2 || first == steps.size() || !steps[first - 1].forward) return std::nullopt;
  for (size_t j = first + 1; j < steps.size(); ++j)
    if (steps[j].forward) return first - 2;
  return std::nullopt;
}

}  // namespace

void StageBuilder::overlapped_steps(const std::vector<PipelineStep>& steps) {
  // Per direction (0 forward, 1 backward): the receive posted ahead for its next step, and the send of
  // its previous step.
  std::optional<uint32_t> ahead[2], sent[2];
  bool posted_ahead[2] = {false, false};
  const auto first_backward_after = first_backward_posted_after(steps);
  for (size_t i = 0; i < steps.size(); ++i) {
    const PipelineStep& step = steps[i];
    const int d = step.forward ? 0 : 1;
    const auto recv = posted_ahead[d] ? ahead[d] : post_receive(step);
    posted_ahead[d] = false;
    for (const auto& id : {recv, sent[d]})
      if (id) wait_for_.push_back(*id);
    if (recv) receive_gather(step);
    run_step(step, false);
    sent[d] = step_send(step);
    if (auto next = next_in_direction(steps, i)) {
      ahead[d] = post_receive(steps[*next]);
      posted_ahead[d] = true;
    }
    if (first_backward_after == i) {
      ahead[1] = post_receive(steps[i + 2]);
      posted_ahead[1] = true;
    }
  }
}

void StageBuilder::combined_step(const PipelineStep& f, const PipelineStep& b) {
  const auto start = static_cast<uint32_t>(program_.ops.size());
  run_step(f, true);
  const auto middle = static_cast<uint32_t>(program_.ops.size());
  run_step(b, true);
  const auto moved = interleave_at_expert_exchanges(program_, start, middle, {kCompute, kExpertExchange});
  for (uint32_t i = start; i < program_.ops.size(); ++i)
    if (program_.ops[i].stream == kCompute) last_compute_ = i;
  for (auto& id : compute_history_)
    if (id >= start) id = moved[id - start];
}

}  // namespace zs::workload
