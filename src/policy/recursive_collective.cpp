// Recursive halving/doubling and binomial-tree schedules.
#include "policy/recursive_collective.hpp"

#include <algorithm>

#include <stdexcept>

#include "policy/all_to_all.hpp"

namespace zs::policy {
namespace {

using workload::CollectiveKind;

/// Appends transfers step by step. A member's send waits for its previous send and for everything it
/// received since (the data it forwards or reduces).
class ScheduleBuilder {
 public:
  ScheduleBuilder(CollectiveSchedule& s, uint32_t n) : s_(s), last_send_(n, -1), received_(n) {}

  /// A transfer starts when both ends are done with their earlier steps: the sender has what it sends,
  /// and the receiver has posted its receive (the rendezvous of large messages in MPI and NCCL). Without
  /// the receiver's side, an idle member's send would overlap the receiver's earlier step and share its
  /// link, which no real implementation does.
  void send(uint32_t src, uint32_t dst, double bytes) {
    Transfer t{src, dst, core::Bytes(bytes), s_.steps, received_[src]};
    t.after.insert(t.after.end(), received_[dst].begin(), received_[dst].end());
    for (uint32_t end : {src, dst})
      if (last_send_[end] >= 0) t.after.push_back(static_cast<uint32_t>(last_send_[end]));
    std::sort(t.after.begin(), t.after.end());
    t.after.erase(std::unique(t.after.begin(), t.after.end()), t.after.end());
    step_.push_back({src, dst, static_cast<uint32_t>(s_.transfers.size())});
    s_.transfers.push_back(std::move(t));
  }
  /// Ends a step: its transfers become the members' last sends and pending receives.
  void end_step() {
    for (const auto& p : step_) {
      last_send_[p.src] = p.index;
      received_[p.src].clear();
    }
    for (const auto& p : step_) received_[p.dst].push_back(p.index);
    step_.clear();
    ++s_.steps;
  }

 private:
  struct Sent {
    uint32_t src, dst, index;
  };
  CollectiveSchedule& s_;
  std::vector<int64_t> last_send_;
  std::vector<std::vector<uint32_t>> received_;
  std::vector<Sent> step_;
};

uint32_t floor_power_of_two(uint32_t n) {
  uint32_t p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

/// Recursive halving over members [0, p) (p a power of two): after it member i holds block i of S.
void halving(ScheduleBuilder& b, uint32_t p, double bytes) {
  for (uint32_t distance = p / 2; distance >= 1; distance /= 2) {
    bytes /= 2;
    for (uint32_t i = 0; i < p; ++i) b.send(i, i ^ distance, bytes);
    b.end_step();
  }
}

/// Recursive doubling over members [0, p): from blocks of S/p to the whole S on every member.
void doubling(ScheduleBuilder& b, uint32_t p, double bytes) {
  double block = bytes / p;
  for (uint32_t distance = 1; distance < p; distance *= 2) {
    for (uint32_t i = 0; i < p; ++i) b.send(i, i ^ distance, block);
    b.end_step();
    block *= 2;
  }
}

void binomial_reduce(ScheduleBuilder& b, uint32_t n, double bytes) {
  for (uint32_t d = 1; d < n; d *= 2) {
    for (uint32_t i = d; i < n; i += 2 * d) b.send(i, i - d, bytes);
    b.end_step();
  }
}

void binomial_broadcast(ScheduleBuilder& b, uint32_t n, double bytes) {
  uint32_t top = 1;
  while (top < n) top *= 2;
  for (uint32_t d = top / 2; d >= 1; d /= 2) {
    for (uint32_t i = 0; i + d < n; i += 2 * d) b.send(i, i + d, bytes);
    b.end_step();
  }
}

}  // namespace

CollectiveSchedule RecursiveCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "recursive";
  if (request.kind != CollectiveKind::kAllReduce && request.kind != CollectiveKind::kReduceScatter &&
      request.kind != CollectiveKind::kAllGather)
    throw std::invalid_argument("the recursive policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  if (n <= 1) return s;
  const uint32_t p = floor_power_of_two(n);
  if (p != n && request.kind != CollectiveKind::kAllReduce)
    throw std::invalid_argument("recursive " + std::string(workload::to_string(request.kind)) +
                                " needs a power-of-two communicator, not " + std::to_string(n) + " members");
  const double S = request.bytes.value();
  ScheduleBuilder b(s, n);
  if (p != n) {  // fold the extra members onto the first ones
    for (uint32_t e = p; e < n; ++e) b.send(e, e - p, S);
    b.end_step();
  }
  if (request.kind != CollectiveKind::kAllGather) halving(b, p, S);
  if (request.kind != CollectiveKind::kReduceScatter) doubling(b, p, S);
  if (p != n) {
    for (uint32_t e = p; e < n; ++e) b.send(e - p, e, S);
    b.end_step();
  }
  return s;
}

CollectiveSchedule TreeCollective::schedule(const CollectiveRequest& request) const {
  if (request.kind == CollectiveKind::kAllToAll) return direct_all_to_all(request);
  const auto n = static_cast<uint32_t>(request.member_units.size());
  CollectiveSchedule s;
  s.algorithm = "tree";
  const bool reduce = request.kind == CollectiveKind::kAllReduce || request.kind == CollectiveKind::kReduce;
  const bool broadcast =
      request.kind == CollectiveKind::kAllReduce || request.kind == CollectiveKind::kBroadcast;
  if (!reduce && !broadcast)
    throw std::invalid_argument("the tree policy does not implement " +
                                std::string(workload::to_string(request.kind)));
  if (n <= 1) return s;
  ScheduleBuilder b(s, n);
  if (reduce) binomial_reduce(b, n, request.bytes.value());
  if (broadcast) binomial_broadcast(b, n, request.bytes.value());
  return s;
}

}  // namespace zs::policy
