// The groups of one communicator, over mesh axes or listed.
#include "workload/communicator_groups.hpp"

#include <algorithm>

namespace zs::workload {

CommunicatorGroups::CommunicatorGroups(const Mesh& mesh, std::vector<size_t> axes)
    : mesh_(&mesh), axes_(std::move(axes)) {}

CommunicatorGroups::CommunicatorGroups(const Mesh& mesh, const std::vector<std::vector<uint64_t>>& lists)
    : mesh_(&mesh), lists_(&lists), list_of_rank_(mesh.size(), -1) {
  for (size_t g = 0; g < lists.size(); ++g)
    for (uint64_t r : lists[g]) list_of_rank_.at(r) = int64_t(g);
}

std::optional<uint64_t> CommunicatorGroups::index(uint64_t rank) const {
  if (on_mesh()) return mesh_->group_index(rank, axes_);
  const int64_t g = list_of_rank_.at(rank);
  return g < 0 ? std::nullopt : std::optional<uint64_t>(uint64_t(g));
}

uint32_t CommunicatorGroups::position(uint64_t rank) const {
  if (on_mesh()) return mesh_->position(rank, axes_);
  const auto& list = lists_->at(uint64_t(list_of_rank_.at(rank)));
  return uint32_t(std::lower_bound(list.begin(), list.end(), rank) - list.begin());
}

std::vector<uint64_t> CommunicatorGroups::members(uint64_t rank) const {
  if (on_mesh()) return mesh_->group_members(rank, axes_);
  return lists_->at(uint64_t(list_of_rank_.at(rank)));
}

uint64_t CommunicatorGroups::size(uint64_t rank) const {
  if (on_mesh()) return mesh_->group_size(axes_);
  return lists_->at(uint64_t(list_of_rank_.at(rank))).size();
}

uint64_t CommunicatorGroups::count() const {
  return on_mesh() ? mesh_->size() / mesh_->group_size(axes_) : lists_->size();
}

uint64_t CommunicatorGroups::largest() const {
  if (on_mesh()) return mesh_->group_size(axes_);
  size_t most = 0;
  for (const auto& list : *lists_) most = std::max(most, list.size());
  return most;
}

}  // namespace zs::workload
