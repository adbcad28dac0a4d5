// Slurm hostlist expressions ("gpu[001-128,130],login1"): expanded to host names and compressed back, as
// Slurm's scontrol show hostnames and show hostlist do.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zs::inventory {

/// Most host names one expression, or one topology.conf, may name: 2^17, a million GPUs at eight per node
/// (the largest clusters published have about 2^14 nodes). Bounds the work a short expression can ask for.
inline constexpr uint64_t kMaxHostlistHosts = uint64_t(1) << 17;

/// The host names of `expression`, in order, duplicates kept: items separated by commas outside brackets
/// (empty items skipped); in an item, each bracket holds comma-separated numbers or ranges lo-hi (hi >= lo),
/// each printed zero-padded to the width of its low end as written, the brackets combined first slowest;
/// text may come between brackets but not after the last one (Slurm 22.05); every name a host name
/// (core::host_name_problem). Throws std::invalid_argument saying what is wrong for anything else, or for
/// more than kMaxHostlistHosts names.
std::vector<std::string> expand_hostlist(std::string_view expression);

/// The shortest expression Slurm writes for `hosts`, in their order: adjacent names that differ only in a
/// trailing number share one bracket, and runs of consecutive numbers become ranges (a run keeps one
/// zero-padded width, or grows without padding: 9-10, 099-100, but 08 and 9 stay apart).
std::string compress_hostlist(const std::vector<std::string>& hosts);

}  // namespace zs::inventory
