// The names of a Megatron-style plan's mesh axes and of the communicators built on them, declared once.
#pragma once

namespace zs::workload::axis_names {

inline constexpr const char* kPipeline = "pp";
/// Data parallelism: the axis of a plan without expert parallelism, and the communicator of the dense
/// weights' replicas (over edp x ep x cp when experts or context parallelism split them).
inline constexpr const char* kData = "dp";
inline constexpr const char* kExpertData = "edp";  ///< data-parallel replicas of an expert-parallel group
inline constexpr const char* kExpert = "ep";
inline constexpr const char* kContext = "cp";
inline constexpr const char* kTensor = "tp";
/// The tensor-parallel ranks splitting each expert, under their own name (Megatron-LM's expert tensor
/// parallelism), so that their exchanges are not taken for a block's sequence-parallel ones.
inline constexpr const char* kExpertTensor = "etp";
inline constexpr const char* kExpertReplicas = "expert-dp";  ///< ranks holding the same experts

}  // namespace zs::workload::axis_names
