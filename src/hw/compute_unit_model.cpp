// Compute unit model: loading and the roofline cost function.
#include "hw/compute_unit_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "hw/parameter_sources.hpp"

namespace zs::hw {

ComputeUnitModel ComputeUnitModel::from_json(core::JsonObject& json) {
  if (json.string("kind") != "compute-unit")
    throw json.error("kind", "expected \"compute-unit\" for a compute unit model");
  ComputeUnitModel m;
  m.name_ = json.string("name");
  m.description_ = json.optional_string("description").value_or("");
  std::vector<std::string> params;

  core::JsonObject peaks = json.object("matrix_peak");
  for (const auto& key : peaks.keys()) {
    auto d = core::parse_dtype(key);
    if (!d) throw peaks.error(key, "unknown dtype (known: " + core::known_dtypes() + ")");
    m.matrix_peak_[*d] = peaks.flop_rate(key);
    params.push_back("matrix_peak." + key);
  }
  if (m.matrix_peak_.empty()) throw peaks.error("expected at least one dtype with its peak FLOP rate");
  peaks.finish();

  m.vector_peak_ = json.flop_rate("vector_peak");
  m.matrix_efficiency_ = json.number("matrix_efficiency", 1e-6, 1.0);
  if (json.has("matrix_half_efficiency_work")) {
    m.matrix_half_efficiency_work_ = json.flops("matrix_half_efficiency_work");
    params.emplace_back("matrix_half_efficiency_work");
  } else {
    json.optional("matrix_half_efficiency_work");
  }
  m.vector_efficiency_ = json.number("vector_efficiency", 1e-6, 1.0);
  m.hbm_capacity_ = json.bytes("hbm_capacity");
  m.hbm_bandwidth_ = json.byte_rate("hbm_bandwidth");
  m.hbm_efficiency_ = json.number("hbm_efficiency", 1e-6, 1.0);
  m.kernel_launch_overhead_ = json.seconds("kernel_launch_overhead");
  m.idle_power_ = json.watts("idle_power");
  m.load_power_ = json.watts("load_power");
  if (m.load_power_ < m.idle_power_) throw json.error("load_power", "must be at least idle_power");
  for (const char* p :
       {"vector_peak", "matrix_efficiency", "vector_efficiency", "hbm_capacity", "hbm_bandwidth",
        "hbm_efficiency", "kernel_launch_overhead", "idle_power", "load_power"})
    params.emplace_back(p);
  m.sources_ = read_parameter_sources(json, params);
  json.finish();
  return m;
}

nlohmann::json ComputeUnitModel::to_json() const {
  nlohmann::json peaks = nlohmann::json::object();
  for (const auto& [d, rate] : matrix_peak_) peaks[std::string(core::to_string(d))] = core::to_string(rate);
  nlohmann::json j = {{"kind", "compute-unit"},
                      {"name", name_},
                      {"description", description_},
                      {"matrix_peak", peaks},
                      {"vector_peak", core::to_string(vector_peak_)},
                      {"matrix_efficiency", matrix_efficiency_},
                      {"vector_efficiency", vector_efficiency_},
                      {"hbm_capacity", core::to_string(hbm_capacity_)},
                      {"hbm_bandwidth", core::to_string(hbm_bandwidth_)},
                      {"hbm_efficiency", hbm_efficiency_},
                      {"kernel_launch_overhead", core::to_string(kernel_launch_overhead_)},
                      {"idle_power", core::to_string(idle_power_)},
                      {"load_power", core::to_string(load_power_)},
                      {"sources", sources_}};
  if (matrix_half_efficiency_work_.value() > 0)
    j["matrix_half_efficiency_work"] = core::to_string(matrix_half_efficiency_work_);
  return j;
}

core::FlopRate ComputeUnitModel::achieved_rate(core::Dtype d, core::WorkKind k) const {
  if (k == core::WorkKind::kVector) return vector_peak_ * vector_efficiency_;
  auto it = matrix_peak_.find(d);
  if (it == matrix_peak_.end())
    throw std::invalid_argument("compute unit \"" + name_ + "\" has no matrix peak for " +
                                std::string(core::to_string(d)));
  return it->second * matrix_efficiency_;
}

double ComputeUnitModel::matrix_efficiency_at(core::Flops flops_per_kernel) const {
  const double half = matrix_half_efficiency_work_.value();
  if (half <= 0) return matrix_efficiency_;
  const double w = flops_per_kernel.value();
  return matrix_efficiency_ * w / (w + half);
}

core::Joules ComputeUnitModel::energy(core::Seconds elapsed, core::Seconds busy) const {
  return idle_power_ * elapsed + (load_power_ - idle_power_) * busy;
}

core::Seconds ComputeUnitModel::compute_time(const ComputeWork& work) const {
  core::Seconds flop_time(0.0);
  if (work.flops.value() > 0) {
    core::FlopRate rate = achieved_rate(work.dtype, work.kind);
    if (work.kind == core::WorkKind::kMatrix && matrix_half_efficiency_work_.value() > 0)
      rate = matrix_peak_.at(work.dtype) *
             matrix_efficiency_at(work.flops / double(std::max<uint32_t>(1, work.kernels)));
    flop_time = work.flops / rate;
  }
  core::Seconds hbm_time = work.bytes / (hbm_bandwidth_ * hbm_efficiency_);
  return kernel_launch_overhead_ * double(work.kernels) + std::max(flop_time, hbm_time);
}

}  // namespace zs::hw
