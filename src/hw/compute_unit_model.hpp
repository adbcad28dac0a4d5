// Parameter set and cost function of one compute unit type (GPU, NPU, CPU).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/dtype.hpp"
#include "core/json_object.hpp"
#include "core/param_reader.hpp"
#include "core/param_table.hpp"
#include "core/units.hpp"
#include "hw/part_price.hpp"

namespace zs::hw {

/// One piece of compute work, as the cost function sees it.
struct ComputeWork {
  core::Flops flops;                       ///< arithmetic, FLOP
  core::Bytes bytes;                       ///< HBM traffic (reads + writes), B
  core::Dtype dtype = core::Dtype::kBf16;  ///< numeric format of the arithmetic
  core::WorkKind kind = core::WorkKind::kMatrix;
  uint32_t kernels = 1;  ///< kernel launches the work takes
};

/// A compute unit type. Time of work = kernels x launch overhead + max(FLOP time, HBM time), where
/// FLOP time = flops / (peak x efficiency of the work kind) and HBM time = bytes / (bandwidth x
/// HBM efficiency): a roofline. The matrix efficiency depends on the size of each kernel when the
/// model gives `matrix_half_efficiency_work` (w½): efficiency(w) = matrix_efficiency x w / (w + w½)
/// for w = FLOPs per kernel, so small matrix products run at a fraction of the large-GEMM rate;
/// without it the efficiency is constant. A dtype may have its own matrix efficiency. Power is two-level:
/// idle, and load while computing.
class ComputeUnitModel {
 public:
  /// Reads a model file ("kind": "compute-unit"); every parameter needs a cited source.
  static ComputeUnitModel from_json(core::JsonObject& json);
  /// The declared parameters of this model kind.
  static const core::ParamTable& params();
  /// The model as resolved: every parameter, defaults filled in, with its sources (config.json).
  const nlohmann::json& to_json() const { return resolved_; }

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  bool supports(core::Dtype d) const { return matrix_peak_.count(d) != 0; }
  /// Dense matrix-engine peak for a dtype, FLOP/s. Precondition: supports(d).
  core::FlopRate matrix_peak(core::Dtype d) const { return matrix_peak_.at(d); }
  core::FlopRate vector_peak() const { return vector_peak_; }  ///< FLOP/s
  /// Achieved fraction of the matrix peak of dtype `d` for large work: its matrix_efficiency_by_dtype
  /// entry, else matrix_efficiency.
  double matrix_efficiency(core::Dtype d) const;
  /// FLOPs per kernel at which matrix work reaches half of matrix_efficiency (0: size-independent).
  core::Flops matrix_half_efficiency_work() const { return matrix_half_efficiency_work_; }
  /// Achieved fraction of the matrix peak of dtype `d` for kernels of `flops_per_kernel` FLOP.
  double matrix_efficiency_at(core::Dtype d, core::Flops flops_per_kernel) const;
  double vector_efficiency() const { return vector_efficiency_; }  ///< achieved fraction of vector peak
  /// Extra fraction of time compute takes while the unit runs communication kernels beside it (0: none):
  /// compute proceeds at 1 / (1 + overlap_slowdown) of its speed for as long as they run.
  double overlap_slowdown() const { return overlap_slowdown_; }
  core::Bytes hbm_capacity() const { return hbm_capacity_; }       ///< B
  core::ByteRate hbm_bandwidth() const { return hbm_bandwidth_; }  ///< B/s
  double hbm_efficiency() const { return hbm_efficiency_; }        ///< achieved fraction of HBM bandwidth
  core::Seconds kernel_launch_overhead() const { return kernel_launch_overhead_; }  ///< s per kernel
  core::Watts idle_power() const { return idle_power_; }                            ///< W drawn when idle
  core::Watts load_power() const { return load_power_; }  ///< W drawn while computing
  /// W of the unit's share of its host (CPUs, host memory, storage, fans, power conversion), always drawn.
  core::Watts host_power() const { return host_power_; }
  /// The price of one unit with its share of its host, and its service life; nothing when not given.
  const std::optional<PartPrice>& price() const { return price_; }
  /// Energy of a unit over `elapsed` of which `busy` computing: idle x elapsed + (load - idle) x busy.
  core::Joules energy(core::Seconds elapsed, core::Seconds busy) const;

  /// Achieved FLOP rate for large work of this dtype and kind, FLOP/s.
  core::FlopRate achieved_rate(core::Dtype d, core::WorkKind k) const;
  /// Time the work takes on an otherwise idle unit. Throws std::invalid_argument for an unsupported dtype.
  core::Seconds compute_time(const ComputeWork& work) const;

 private:
  void read_matrix_peaks(core::ParamReader& r);
  void read_dtype_efficiencies(core::ParamReader& r);

  std::string name_;
  std::string description_;
  std::map<core::Dtype, core::FlopRate> matrix_peak_;
  core::FlopRate vector_peak_;
  double matrix_efficiency_ = 1.0;
  std::map<core::Dtype, double>
      matrix_efficiency_by_dtype_;  ///< fractions that differ from matrix_efficiency_
  core::Flops matrix_half_efficiency_work_{0.0};
  double vector_efficiency_ = 1.0;
  double overlap_slowdown_ = 0.0;
  core::Bytes hbm_capacity_;
  core::ByteRate hbm_bandwidth_;
  double hbm_efficiency_ = 1.0;
  core::Seconds kernel_launch_overhead_;
  core::Watts idle_power_;
  core::Watts load_power_;
  core::Watts host_power_;
  std::optional<PartPrice> price_;
  nlohmann::json resolved_;
};

}  // namespace zs::hw
