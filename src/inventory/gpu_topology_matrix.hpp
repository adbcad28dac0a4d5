// The inside of a GPU node as `nvidia-smi topo -m` prints it: how each GPU pair and each GPU and NIC connect.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zs::inventory {

/// One cell of the matrix: NVLink with `nvlinks` links, or a PCIe path of the given kind.
struct GpuPath {
  /// Nearest first, as nvidia-smi's legend orders them: PIX (at most one PCIe bridge), PXB (several
  /// bridges), PHB (a host bridge), NODE (host bridges within a NUMA node), SYS (across NUMA nodes).
  enum class Kind { kSelf, kNvlink, kPix, kPxb, kPhb, kNode, kSys };
  Kind kind = Kind::kSys;
  uint32_t nvlinks = 0;  ///< with kNvlink: the NV# count (bonded NVLinks)
};

/// The matrix of one node type.
struct GpuTopologyMatrix {
  std::string file;
  std::vector<std::vector<GpuPath>> gpu_to_gpu;  ///< [GPU][GPU]
  std::vector<std::vector<GpuPath>> gpu_to_nic;  ///< [GPU][NIC]
  std::vector<std::string> nics;                 ///< device names ("mlx5_0"), from the NIC legend when given

  uint32_t gpus() const { return static_cast<uint32_t>(gpu_to_gpu.size()); }
  /// NVLinks every GPU pair shares when all pairs share the same count (an NVSwitch fabric); 0 otherwise.
  uint32_t uniform_nvlinks() const;
  /// The nearest NIC of each GPU (the first of the nearest when several are as near).
  std::vector<uint32_t> nearest_nic() const;

  /// Reads nvidia-smi topo -m output: a header of GPU and NIC columns (then "CPU Affinity" and more), one
  /// row per GPU and NIC, the legends after. Cells: X, NV<n>, PIX, PXB, PHB, NODE, SYS (SOC, the older name
  /// of SYS). NIC columns are named NIC<n> (then "NIC<n>: mlx5_0" legend lines give their devices) or by
  /// device ("mlx5_0"). Throws core::InputError naming the file and line for a missing header, a row
  /// without one cell per column, an unknown cell, a matrix that is not symmetric between GPUs, and for
  /// no GPU or no NIC.
  static GpuTopologyMatrix parse(const std::string& text, const std::string& file);
};

}  // namespace zs::inventory
