// Algorithm choice by the catalog's policies' own estimates.
#include "policy/collective/auto_collective.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "policy/collective/pairwise_collective.hpp"
#include "policy/collective/route_measurements.hpp"
#include "policy/policy_catalog.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// The protocols auto estimates each algorithm under: the one the scenario names, or all three when the
/// protocol is chosen per collective (the algorithm and the protocol picked together, as NCCL's tuner does).
std::vector<hw::CollectiveProtocol> candidate_protocols(ProtocolSetting setting) {
  switch (setting) {
    case ProtocolSetting::kSimple:
      return {hw::CollectiveProtocol::kSimple};
    case ProtocolSetting::kLl128:
      return {hw::CollectiveProtocol::kLl128};
    case ProtocolSetting::kLl:
      return {hw::CollectiveProtocol::kLl};
    case ProtocolSetting::kAuto:
      break;
  }
  return {hw::kCollectiveProtocols.begin(), hw::kCollectiveProtocols.end()};
}

}  // namespace

AutoCollective::AutoCollective(CollectiveOptions options)
    : AutoCollective(options, candidates_of(builtin_collective_policies(), options)) {}

AutoCollective::AutoCollective(CollectiveOptions options,
                               std::vector<std::unique_ptr<CollectivePolicy>> candidates)
    : options_(options), candidates_(std::move(candidates)) {}

std::vector<std::unique_ptr<CollectivePolicy>> AutoCollective::candidates_of(
    const CollectiveRegistry& catalog, const CollectiveOptions& options) {
  const CollectiveRegistry none(catalog.family());
  std::vector<std::unique_ptr<CollectivePolicy>> made;
  for (const auto& entry : catalog.entries()) made.push_back(entry.make(options, none));
  return made;
}

const CollectivePolicy& AutoCollective::choose(const CollectiveRequest& request) const {
  if (request.member_units.size() <= 1) return fallback_;
  RouteMeasurements routes(request);
  const auto protocols = candidate_protocols(options_.protocol);
  const CollectivePolicy* best = nullptr;
  double least = std::numeric_limits<double>::infinity();
  for (const auto& candidate : candidates_) {
    double time = std::numeric_limits<double>::infinity();  // its least over the protocols
    for (auto p : protocols)
      if (const auto seconds = estimated_time(*candidate, request, p, routes))
        time = std::min(time, seconds->value());
    if (!(time < least)) continue;  // ties go to the earlier candidate
    if (options_.algorithms == AlgorithmSet::kNccl && !candidate->nccl_algorithm(request)) continue;
    least = time;
    best = candidate.get();
  }
  return best != nullptr ? *best : fallback_;
}

CollectiveSchedule AutoCollective::schedule(const CollectiveRequest& request) const {
  auto s = request.kind == CollectiveKind::kAllToAll ? direct_all_to_all(request)
                                                     : choose(request).schedule(request);
  s.algorithm = "auto:" + s.algorithm;
  return s;
}

std::pair<std::string, std::vector<RepeatedStep>> AutoCollective::steps(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return CollectivePolicy::steps(request);
  auto picked = choose(request).steps(request);
  picked.first = "auto:" + picked.first;
  return picked;
}

std::optional<std::string> AutoCollective::nccl_algorithm(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return std::nullopt;
  return choose(request).nccl_algorithm(request);
}

std::optional<hw::LibraryAlgorithm> AutoCollective::library_algorithm(
    const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return std::nullopt;
  return choose(request).library_algorithm(request);
}

}  // namespace zs::policy
