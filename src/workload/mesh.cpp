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

uint64_t Mesh::neighbour_wrapped(uint64_t rank, size_t axis, int64_t offset) const {
  const int64_t n = axes_[axis].size;
  const int64_t c = ((int64_t(coordinate(rank, axis)) + offset) % n + n) % n;
  return rank - uint64_t(coordinate(rank, axis)) * strides_[axis] + uint64_t(c) * strides_[axis];
}

uint64_t Mesh::group_size(const std::vector<size_t>& axes) const {
  uint64_t n = 1;
  for (size_t a : axes) n *= axes_[a].size;
  return n;
}

uint64_t Mesh::group_index(uint64_t rank, const std::vector<size_t>& axes) const {
  uint64_t index = 0;
  for (size_t a = 0, k = 0; a < axes_.size(); ++a) {
    if (k < axes.size() && axes[k] == a) {
      ++k;
      continue;
    }
    index = index * axes_[a].size + coordinate(rank, a);
  }
  return index;
}

uint32_t Mesh::position(uint64_t rank, const std::vector<size_t>& axes) const {
  uint64_t p = 0;
  for (size_t a : axes) p = p * axes_[a].size + coordinate(rank, a);
  return static_cast<uint32_t>(p);
}

std::vector<uint64_t> Mesh::group_members(uint64_t rank, const std::vector<size_t>& axes) const {
  uint64_t base = rank;
  for (size_t a : axes) base -= uint64_t(coordinate(rank, a)) * strides_[a];
  std::vector<uint64_t> out{base};
  for (size_t a : axes) {  // row-major: expand the slowest axis first, the fastest last
    std::vector<uint64_t> next;
    next.reserve(out.size() * axes_[a].size);
    for (uint64_t r : out)
      for (uint32_t c = 0; c < axes_[a].size; ++c) next.push_back(r + uint64_t(c) * strides_[a]);
    out = std::move(next);
  }
  return out;
}

std::optional<uint64_t> Mesh::neighbour(uint64_t rank, const std::vector<size_t>& axes, int64_t offset,
                                        bool wrap) const {
  const auto n = static_cast<int64_t>(group_size(axes));
  int64_t q = int64_t(position(rank, axes)) + offset;
  if (wrap) q = (q % n + n) % n;
  if (q < 0 || q >= n) return std::nullopt;
  uint64_t peer = rank;
  for (size_t a : axes) peer -= uint64_t(coordinate(rank, a)) * strides_[a];
  for (size_t k = axes.size(); k-- > 0;) {  // the last axis is the fastest
    const size_t a = axes[k];
    peer += uint64_t(q % axes_[a].size) * strides_[a];
    q /= axes_[a].size;
  }
  return peer;
}

std::vector<uint64_t> Mesh::group_members(uint64_t rank, size_t axis) const {
  uint64_t base = rank - uint64_t(coordinate(rank, axis)) * strides_[axis];
  std::vector<uint64_t> out(axes_[axis].size);
  for (uint32_t c = 0; c < axes_[axis].size; ++c) out[c] = base + uint64_t(c) * strides_[axis];
  return out;
}

}  // namespace zs::workload
