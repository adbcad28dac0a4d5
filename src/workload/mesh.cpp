// Mesh coordinates and communicator groups.
#include "workload/mesh.hpp"

#include <stdexcept>

namespace zs::workload {

Mesh::Mesh(std::vector<MeshAxis> axes) : axes_(std::move(axes)), strides_(axes_.size()) {
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (axes_[i].name.empty()) throw std::invalid_argument("mesh axis with an empty name");
    if (axes_[i].size == 0) throw std::invalid_argument("mesh axis \"" + axes_[i].name + "\" has size 0");
    for (size_t j = 0; j < i; ++j)
      if (axes_[j].name == axes_[i].name)
        throw std::invalid_argument("duplicate mesh axis \"" + axes_[i].name + "\"");
  }
  uint64_t stride = 1;
  for (size_t i = axes_.size(); i-- > 0;) {
    strides_[i] = stride;
    stride *= axes_[i].size;
  }
  size_ = stride;
}

std::optional<size_t> Mesh::axis_index(std::string_view name) const {
  for (size_t i = 0; i < axes_.size(); ++i)
    if (axes_[i].name == name) return i;
  return std::nullopt;
}

uint32_t Mesh::coordinate(uint64_t rank, size_t axis) const {
  return static_cast<uint32_t>((rank / strides_[axis]) % axes_[axis].size);
}

uint64_t Mesh::group_index(uint64_t rank, size_t axis) const {
  uint64_t outer = rank / (strides_[axis] * axes_[axis].size);
  uint64_t inner = rank % strides_[axis];
  return outer * strides_[axis] + inner;
}

std::optional<uint64_t> Mesh::neighbour(uint64_t rank, size_t axis, int64_t offset) const {
  int64_t c = int64_t(coordinate(rank, axis)) + offset;
  if (c < 0 || c >= int64_t(axes_[axis].size)) return std::nullopt;
  return uint64_t(int64_t(rank) + offset * int64_t(strides_[axis]));
}

std::vector<uint64_t> Mesh::group_members(uint64_t rank, size_t axis) const {
  uint64_t base = rank - uint64_t(coordinate(rank, axis)) * strides_[axis];
  std::vector<uint64_t> out(axes_[axis].size);
  for (uint32_t c = 0; c < axes_[axis].size; ++c) out[c] = base + uint64_t(c) * strides_[axis];
  return out;
}

}  // namespace zs::workload
