// Software-stack model loading.
#include "hw/software_stack_model.hpp"

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"

namespace zs::hw {

const core::ParamTable& SoftwareStackModel::params() {
  using core::Param;
  static const core::ParamTable table = core::model_table(
      core::FileKind::kSoftwareStack,
      "a training framework's fixed host-side costs beyond its kernels (charged on the compute stream)",
      {Param::seconds("per_layer_pass",
                      "host time the unit waits for per layer and forward or backward pass of a micro-batch "
                      "(recomputed forwards included): launch and framework work the kernels do not hide")
           .non_negative()
           .or_default("0s")
           .cite(),
       Param::seconds("per_moe_layer_forward",
                      "on top of per_layer_pass, per MoE layer forward: a blocking host synchronization (the "
                      "dispatcher reading the routed split sizes)")
           .non_negative()
           .or_default("0s")
           .cite(),
       Param::seconds("per_step",
                      "per forward and per backward pipeline step (a micro-batch on one virtual "
                      "stage): schedule bookkeeping and exchange setup")
           .non_negative()
           .or_default("0s")
           .cite(),
       Param::seconds("per_iteration", "once per iteration, before the optimizer step")
           .non_negative()
           .or_default("0s")
           .cite()});
  return table;
}

SoftwareStackModel SoftwareStackModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  SoftwareStackModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.per_layer_pass_ = r.get<core::Seconds>("per_layer_pass");
  m.per_moe_layer_forward_ = r.get<core::Seconds>("per_moe_layer_forward");
  m.per_step_ = r.get<core::Seconds>("per_step");
  m.per_iteration_ = r.get<core::Seconds>("per_iteration");
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

std::string SoftwareStackModel::describe() const {
  return name_ + ": per layer pass " + core::display(per_layer_pass_) + ", per MoE layer forward " +
         core::display(per_moe_layer_forward_) + ", per pipeline step " + core::display(per_step_) +
         ", per iteration " + core::display(per_iteration_);
}

}  // namespace zs::hw
