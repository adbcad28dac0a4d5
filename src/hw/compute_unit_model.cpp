// Compute unit model: loading and the roofline cost function.
#include "hw/compute_unit_model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/file_kind.hpp"
#include "core/param_reader.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

const core::ParamTable& ComputeUnitModel::params() {
  static const core::ParamTable table = core::model_table(
      core::FileKind::kComputeUnit,
      "a compute unit type (GPU, NPU, CPU): a roofline of FLOP rate and HBM bandwidth",
      with_part_price(
          {core::Param::object(
               "matrix_peak", "dtype name (bf16, fp16, fp8, tf32, fp64, ...) -> FLOP/s",
               "dense matrix-engine peak per dtype; each entry is cited as matrix_peak.DTYPE"),
           core::Param::flop_rate("vector_peak", "peak of element-wise (non-matrix) arithmetic").cite(),
           core::Param::number(
               "matrix_efficiency", 1e-6, 1.0,
               "achieved fraction of the matrix peak for large work (dtypes without their own entry)")
               .cite(),
           core::Param::object(
               "matrix_efficiency_by_dtype", "dtype name -> fraction in (0, 1]",
               "achieved fraction of that dtype's matrix peak for large work, where it differs "
               "from matrix_efficiency (fp8 products reach a smaller share of their peak); each "
               "entry is cited as matrix_efficiency_by_dtype.DTYPE")
               .optional(),
           core::Param::flops(
               "matrix_half_efficiency_work",
               "FLOP per kernel at which matrix work reaches half of matrix_efficiency; left out, "
               "the efficiency does not depend on kernel size")
               .optional()
               .cite(),
           core::Param::number("vector_efficiency", 1e-6, 1.0, "achieved fraction of the vector peak").cite(),
           core::Param::number(
               "overlap_slowdown", 0.0, 10.0,
               "how much longer compute takes while communication kernels (collectives, "
               "point-to-point) run beside it on the unit, taking SMs and memory bandwidth: 0.19 "
               "is 19% longer; left out, 0 (no interference)")
               .optional()
               .cite(),
           core::Param::bytes("hbm_capacity", "memory on the unit").cite(),
           core::Param::byte_rate("hbm_bandwidth", "memory bandwidth, reads and writes together").cite(),
           core::Param::number("hbm_efficiency", 1e-6, 1.0, "achieved fraction of the memory bandwidth")
               .cite(),
           core::Param::seconds("kernel_launch_overhead", "time each kernel launch adds").cite(),
           core::Param::watts("idle_power", "power drawn when idle").cite(),
           core::Param::watts("load_power",
                              "power drawn while computing (memory on the package included); at "
                              "least idle_power")
               .cite(),
           core::Param::watts(
               "host_power",
               "power of the unit's share of its host, drawn whether it computes or not: host CPUs, "
               "host memory, local storage, fans and power conversion (0 for a unit that is its "
               "own host's only part counted elsewhere)")
               .non_negative()
               .cite()},
          "one unit with its share of its host (a server's price over its units)"));
  return table;
}

ComputeUnitModel ComputeUnitModel::from_json(core::JsonObject& json) {
  core::ParamReader r(params(), json);
  r.get<std::string>("kind");  // the table's constant
  ComputeUnitModel m;
  m.name_ = r.get<std::string>("name");
  m.description_ = r.get<std::string>("description");
  m.read_matrix_peaks(r);
  m.vector_peak_ = r.get<core::FlopRate>("vector_peak");
  m.matrix_efficiency_ = r.get<double>("matrix_efficiency");
  if (r.has("matrix_efficiency_by_dtype")) m.read_dtype_efficiencies(r);
  m.matrix_half_efficiency_work_ =
      r.find<core::Flops>("matrix_half_efficiency_work").value_or(core::Flops(0.0));
  m.vector_efficiency_ = r.get<double>("vector_efficiency");
  m.overlap_slowdown_ = r.find<double>("overlap_slowdown").value_or(0.0);
  m.hbm_capacity_ = r.get<core::Bytes>("hbm_capacity");
  m.hbm_bandwidth_ = r.get<core::ByteRate>("hbm_bandwidth");
  m.hbm_efficiency_ = r.get<double>("hbm_efficiency");
  m.kernel_launch_overhead_ = r.get<core::Seconds>("kernel_launch_overhead");
  m.idle_power_ = r.get<core::Watts>("idle_power");
  m.load_power_ = r.get<core::Watts>("load_power");
  if (m.load_power_ < m.idle_power_) throw r.error("load_power", "must be at least idle_power");
  m.host_power_ = r.get<core::Watts>("host_power");
  m.price_ = read_part_price(r);
  r.finish();
  m.resolved_ = r.resolved();
  return m;
}

namespace {

/// Reads `key`, an object of per-dtype entries, each cited as "key.DTYPE": `read_entry(object, name,
/// dtype)` reads one and returns it as the resolved configuration records it. `if_empty`: the error for an
/// object without entries (nullptr: allowed).
template <typename ReadEntry>
void read_per_dtype(core::ParamReader& r, const std::string& key, const char* if_empty,
                    ReadEntry read_entry) {
  core::JsonObject entries = r.object(key);
  nlohmann::json written = nlohmann::json::object();
  for (const auto& name : entries.keys()) {
    auto d = core::parse_dtype(name);
    if (!d) throw entries.error(name, "unknown dtype (known: " + core::known_dtypes() + ")");
    written[name] = read_entry(entries, name, *d);
    r.cite(key + "." + name);
  }
  if (if_empty != nullptr && written.empty()) throw entries.error(if_empty);
  entries.finish();
  r.record(key, std::move(written));
}

}  // namespace

void ComputeUnitModel::read_matrix_peaks(core::ParamReader& r) {
  read_per_dtype(r, "matrix_peak", "expected at least one dtype with its peak FLOP rate",
                 [&](core::JsonObject& peaks, const std::string& name, core::Dtype d) {
                   matrix_peak_[d] = peaks.flop_rate(name);
                   return core::to_string(matrix_peak_[d]);
                 });
}

void ComputeUnitModel::read_dtype_efficiencies(core::ParamReader& r) {
  read_per_dtype(r, "matrix_efficiency_by_dtype", nullptr,
                 [&](core::JsonObject& efficiencies, const std::string& name, core::Dtype d) {
                   if (!supports(d)) throw efficiencies.error(name, "no matrix_peak is given for this dtype");
                   return matrix_efficiency_by_dtype_[d] = efficiencies.number(name, 1e-6, 1.0);
                 });
}

double ComputeUnitModel::matrix_efficiency(core::Dtype d) const {
  auto it = matrix_efficiency_by_dtype_.find(d);
  return it == matrix_efficiency_by_dtype_.end() ? matrix_efficiency_ : it->second;
}

core::FlopRate ComputeUnitModel::achieved_rate(core::Dtype d, core::WorkKind k) const {
  if (k == core::WorkKind::kVector) return vector_peak_ * vector_efficiency_;
  auto it = matrix_peak_.find(d);
  if (it == matrix_peak_.end())
    throw std::invalid_argument("compute unit \"" + name_ + "\" has no matrix peak for " +
                                std::string(core::to_string(d)));
  return it->second * matrix_efficiency(d);
}

double ComputeUnitModel::matrix_efficiency_at(core::Dtype d, core::Flops flops_per_kernel) const {
  const double half = matrix_half_efficiency_work_.value();
  if (half <= 0) return matrix_efficiency(d);
  const double w = flops_per_kernel.value();
  return matrix_efficiency(d) * w / (w + half);
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
             matrix_efficiency_at(work.dtype, work.flops / double(std::max<uint32_t>(1, work.kernels)));
    flop_time = work.flops / rate;
  }
  core::Seconds hbm_time = work.bytes / (hbm_bandwidth_ * hbm_efficiency_);
  return kernel_launch_overhead_ * double(work.kernels) + std::max(flop_time, hbm_time);
}

}  // namespace zs::hw
