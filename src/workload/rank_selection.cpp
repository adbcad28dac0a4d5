// Parsing and testing a selection of ranks by number or by mesh coordinates.
#include "workload/rank_selection.hpp"

#include <charconv>
#include <optional>

#include "core/input_error.hpp"

namespace zs::workload {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t from = 0;
  for (size_t at = text.find(sep); at != std::string_view::npos; at = text.find(sep, from)) {
    out.push_back(text.substr(from, at - from));
    from = at + 1;
  }
  out.push_back(text.substr(from));
  return out;
}

std::optional<uint64_t> whole_number(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// "N", "N-M" or "N..M" as an inclusive range; nullopt when malformed or decreasing.
std::optional<std::pair<uint64_t, uint64_t>> inclusive_range(std::string_view text) {
  size_t sep = text.find("..");
  size_t sep_length = 2;
  if (sep == std::string_view::npos) {
    sep = text.find('-');
    sep_length = 1;
  }
  if (sep == std::string_view::npos) {
    const auto one = whole_number(text);
    if (!one) return std::nullopt;
    return std::make_pair(*one, *one);
  }
  const auto first = whole_number(text.substr(0, sep)), last = whole_number(text.substr(sep + sep_length));
  if (!first || !last || *last < *first) return std::nullopt;
  return std::make_pair(*first, *last);
}

}  // namespace

RankSelection RankSelection::parse(std::string_view text, const Mesh& mesh, const std::string& option) {
  auto fail = [&](const std::string& what) {
    return core::InputError(option, "", "\"" + std::string(text) + "\": " + what);
  };
  RankSelection out;
  out.mesh_ = mesh;
  for (std::string_view item : split(text, ',')) {
    const size_t equals = item.find('=');
    if (equals == std::string_view::npos) {
      const auto range = inclusive_range(item);
      if (!range)
        throw fail("expected ranks (\"0-7,12\") or mesh coordinates (\"pp=0..3,tp=0\"), got \"" +
                   std::string(item) + "\"");
      if (range->second >= mesh.size())
        throw fail("rank " + std::to_string(range->second) + " is beyond the mesh's " +
                   std::to_string(mesh.size()) + " ranks");
      out.ranks_.push_back(*range);
      continue;
    }
    const std::string axis_name(item.substr(0, equals));
    const auto axis = mesh.axis_index(axis_name);
    if (!axis) {
      std::string known;
      for (const auto& a : mesh.axes()) known += (known.empty() ? "" : ", ") + a.name;
      throw fail("no mesh axis \"" + axis_name + "\" (the mesh has " + known + ")");
    }
    const auto range = inclusive_range(item.substr(equals + 1));
    if (!range) throw fail("expected a coordinate or a range N..M after \"" + axis_name + "=\"");
    const uint32_t size = mesh.axes()[*axis].size;
    if (range->second >= size)
      throw fail(axis_name + " coordinate " + std::to_string(range->second) + " is beyond its size " +
                 std::to_string(size));
    out.coordinates_.push_back({*axis, uint32_t(range->first), uint32_t(range->second)});
  }
  if (!out.ranks_.empty() && !out.coordinates_.empty())
    throw fail("mixes rank numbers and mesh coordinates: use one or the other");
  return out;
}

bool RankSelection::contains(uint64_t rank) const {
  if (!ranks_.empty()) {
    for (auto [first, last] : ranks_)
      if (rank >= first && rank <= last) return true;
    return false;
  }
  for (size_t axis = 0; axis < mesh_.axes().size(); ++axis) {
    bool named = false, inside = false;
    for (const auto& c : coordinates_) {
      if (c.axis != axis) continue;
      named = true;
      const uint32_t at = mesh_.coordinate(rank, axis);
      inside = inside || (at >= c.first && at <= c.last);
    }
    if (named && !inside) return false;
  }
  return true;
}

}  // namespace zs::workload
