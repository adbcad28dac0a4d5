// The protocols a collective library moves data with (NCCL's LL, LL128 and Simple) and their costs.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/units.hpp"

namespace zs::hw {

/// How a collective library moves each step's data. Simple pays the most per step (flag synchronization
/// and the network proxy once per chunk) at full bandwidth; LL128 and LL trade bandwidth for lower
/// per-step latency by carrying flags with the data (NCCL's three protocols).
enum class CollectiveProtocol : uint8_t { kSimple, kLl128, kLl };

inline constexpr std::array<CollectiveProtocol, 3> kCollectiveProtocols = {
    CollectiveProtocol::kSimple, CollectiveProtocol::kLl128, CollectiveProtocol::kLl};

/// "simple", "ll128" or "ll".
std::string_view to_string(CollectiveProtocol protocol);

/// The fraction of a route's bandwidth the protocol's payload achieves (NCCL's tuner, src/graph/tuning.cc,
/// NCCL 2.19: a ring's bus bandwidth x 1 for Simple, x 0.92 for LL128 (120 payload bytes of each
/// 128-byte line), x 1/4 for LL (4 payload bytes of each 8-byte store, at a lower store rate) across
/// servers or for an all-reduce). The per-channel caps NCCL applies on top are not modelled.
double bandwidth_fraction(CollectiveProtocol protocol);

/// The collective library's algorithm families, NCCL's ring, tree and NVLS (reduction in a host's
/// NVSwitch): each has its own fixed cost per collective (base_latency); the ring and tree have their own
/// rows of per-step latencies (LinkModel::step_latency), NVLS steps take the ring's.
enum class LibraryAlgorithm : uint8_t { kRing, kTree, kNvls };

/// The collective library's fixed cost of one collective of `algorithm` under `protocol` (kernel launch
/// and setup before its first step), s. NCCL's tuner (src/graph/tuning.cc, NCCL 2.19, baseLat): ring
/// 8.4 us Simple, 14 us LL128, 6.6 us LL; tree 0 us Simple (its per-step latency carries it), 14 us
/// LL128, 6.8 us LL. NVLS: 25 us, the tuner's whole latency of an NVLS collective within a server
/// (hwLat's NVLink row for NVLS under Simple; 0 under the protocols it does not run under).
core::Seconds base_latency(LibraryAlgorithm algorithm, CollectiveProtocol protocol);

/// Whether the library runs `algorithm` under `protocol`: NVLS runs under Simple only (NCCL's tuner
/// skips its LL and LL128 entries); the ring and tree under all three.
bool runs_under(LibraryAlgorithm algorithm, CollectiveProtocol protocol);

}  // namespace zs::hw
