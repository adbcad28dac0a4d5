// Communicator-group files: reading them, and the mesh of ranks their process groups form.
#include "chakra/comm_groups.hpp"

#include <algorithm>
#include <set>

#include "core/file_name.hpp"
#include "core/input_error.hpp"
#include "core/json_object.hpp"

namespace zs::chakra {
namespace {

/// A group's members as offsets from its first: one axis (stride, size) after another, slowest last.
using Box = std::vector<std::pair<uint64_t, uint64_t>>;

/// The axes of a group whose offsets are `offsets` (ascending, from 0): each next axis has the smallest
/// offset not yet spanned as its stride and as many steps as the offsets hold. Nullopt when the
/// offsets are not such a box.
std::optional<Box> box_of(const std::vector<uint64_t>& offsets) {
  const std::set<uint64_t> all(offsets.begin(), offsets.end());
  std::set<uint64_t> span{0};
  Box box;
  while (span.size() < all.size()) {
    const auto next =
        std::find_if(offsets.begin(), offsets.end(), [&](uint64_t o) { return !span.count(o); });
    const uint64_t stride = *next;
    uint64_t steps = 1;
    auto holds = [&](uint64_t k) {
      return std::all_of(span.begin(), span.end(), [&](uint64_t x) { return all.count(x + k * stride) > 0; });
    };
    while (holds(steps)) ++steps;
    if (steps == 1) return std::nullopt;  // the offset does not repeat what is spanned: no box
    std::set<uint64_t> grown;
    for (uint64_t x : span)
      for (uint64_t k = 0; k < steps; ++k) grown.insert(x + k * stride);
    span = std::move(grown);
    box.push_back({stride, steps});
  }
  if (span != all) return std::nullopt;
  return box;
}

/// One kind of group: the same offsets from their first member.
struct Kind {
  std::vector<uint64_t> offsets;
  std::vector<size_t> groups;  ///< indices in CommGroups::groups
  Box box;
  std::string problem;  ///< why the kind cannot be an axis of a mesh; empty if it can
};

}  // namespace

const std::vector<uint64_t>* CommGroups::find(const std::string& id) const {
  for (const auto& [name, members] : groups)
    if (name == id) return &members;
  return nullptr;
}

std::string CommGroups::ids() const {
  std::string out;
  for (const auto& g : groups) out += (out.empty() ? "" : ", ") + core::quoted_for_message(g.first, 24);
  return out;
}

CommGroups read_comm_groups(const std::string& path, const core::FileSource& files, uint64_t ranks) {
  const auto text = files.read(path);
  if (!text)
    throw core::InputError(path, "", "cannot read the communicator-group file (missing or unreadable)");
  const nlohmann::json doc = core::parse_json(*text, path);
  if (!doc.is_object() || doc.empty())
    throw core::InputError(path, "",
                           "expected an object from each process group's id (its pg_name) to its member "
                           "ranks, e.g. {\"0\": [0, 1], \"1\": [2, 3]}");
  CommGroups out{path, {}};
  for (const auto& [id, members] : doc.items()) {
    const std::string at = core::json_pointer_append("", id);
    if (!members.is_array() || members.empty())
      throw core::InputError(path, at, "expected a non-empty array of the group's member ranks");
    std::vector<uint64_t> ranks_in;
    for (size_t k = 0; k < members.size(); ++k) {
      const auto& m = members[k];
      if (!m.is_number_integer() || m.get<int64_t>() < 0 || m.get<uint64_t>() >= ranks)
        throw core::InputError(path, at + "/" + std::to_string(k),
                               "expected a rank of this " + std::to_string(ranks) + "-rank trace (0 to " +
                                   std::to_string(ranks - 1) + "), got " + m.dump());
      ranks_in.push_back(m.get<uint64_t>());
    }
    std::sort(ranks_in.begin(), ranks_in.end());
    if (const auto twice = std::adjacent_find(ranks_in.begin(), ranks_in.end()); twice != ranks_in.end())
      throw core::InputError(path, at, "rank " + std::to_string(*twice) + " is listed twice");
    out.groups.emplace_back(id, std::move(ranks_in));
  }
  return out;
}

namespace {

/// Why a set of kinds of group does not form a mesh (thrown inside this file only).
struct NotAMesh {
  std::string why;
};

/// The kinds of group in `g` (groups with the same offsets from their first member), in the order of
/// their first group. A kind that does not cover every rank once, or is not a box of ranks, gets a
/// `problem` and cannot be an axis of the mesh.
std::vector<Kind> kinds_of(const CommGroups& g, uint64_t ranks) {
  std::vector<Kind> kinds;
  for (size_t i = 0; i < g.groups.size(); ++i) {
    const auto& members = g.groups[i].second;
    std::vector<uint64_t> offsets;
    for (uint64_t m : members) offsets.push_back(m - members.front());
    auto kind = std::find_if(kinds.begin(), kinds.end(), [&](const Kind& k) { return k.offsets == offsets; });
    if (kind == kinds.end()) kind = kinds.insert(kinds.end(), Kind{offsets, {}, {}, {}});
    kind->groups.push_back(i);
  }
  for (auto& kind : kinds) {
    const std::string first = core::quoted_for_message(g.groups[kind.groups.front()].first, 24);
    std::vector<int64_t> group_of(ranks, -1);
    for (size_t i : kind.groups)
      for (uint64_t m : g.groups[i].second) {
        if (group_of[m] >= 0 && kind.problem.empty())
          kind.problem = "rank " + std::to_string(m) + " is in two groups of the same shape, " +
                         core::quoted_for_message(g.groups[size_t(group_of[m])].first, 24) + " and " +
                         core::quoted_for_message(g.groups[i].first, 24);
        group_of[m] = int64_t(i);
      }
    const auto left = std::find(group_of.begin(), group_of.end(), -1);
    if (kind.problem.empty() && left != group_of.end())
      kind.problem = "the groups shaped like " + first + " leave rank " +
                     std::to_string(left - group_of.begin()) + " out";
    auto box = box_of(kind.offsets);
    if (kind.problem.empty() && !box) kind.problem = "group " + first + " is not a regular grid of ranks";
    if (box) kind.box = std::move(*box);
  }
  return kinds;
}

/// The mesh whose axes the kinds `kinds` (each covering every rank once, a box) are, or NotAMesh.
GroupMesh mesh_of_kinds(const CommGroups& g, const std::vector<const Kind*>& kinds, uint64_t ranks) {
  // Every stride and extent of a kind's axes cuts the ranks' row-major order; consecutive cuts must
  // nest, and each pair of them is one mesh axis.
  std::set<uint64_t> cuts{1, ranks};
  for (const Kind* kind : kinds)
    for (auto [stride, size] : kind->box) cuts.insert({stride, stride * size});
  const std::vector<uint64_t> cut(cuts.begin(), cuts.end());
  if (cut.back() != ranks) throw NotAMesh{"a group reaches past the last rank"};
  for (size_t j = 0; j + 1 < cut.size(); ++j)
    if (cut[j + 1] % cut[j] != 0)
      throw NotAMesh{"strides " + std::to_string(cut[j]) + " and " + std::to_string(cut[j + 1]) +
                     " do not nest"};
  const size_t n = cut.size() - 1;  // mesh axis n-1-j has stride cut[j]
  const bool single =
      n == 0 || std::any_of(kinds.begin(), kinds.end(), [](const Kind* k) { return k->box.empty(); });
  GroupMesh out;
  out.axes.resize(n + (single ? 1 : 0));
  for (size_t j = 0; j < n; ++j) out.axes[n - 1 - j].size = uint32_t(cut[j + 1] / cut[j]);
  if (single) out.axes[n] = {"single", 1};
  std::vector<std::vector<size_t>> axes_of_kind(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k) {
    for (auto [stride, size] : kinds[k]->box)
      for (size_t j = 0; j < n; ++j)
        if (cut[j] >= stride && cut[j] < stride * size) axes_of_kind[k].push_back(n - 1 - j);
    if (kinds[k]->box.empty()) axes_of_kind[k].push_back(n);
    std::sort(axes_of_kind[k].begin(), axes_of_kind[k].end());
    if (axes_of_kind[k].size() == 1 && out.axes[axes_of_kind[k][0]].name.empty())
      out.axes[axes_of_kind[k][0]].name = "pg" + g.groups[kinds[k]->groups.front()].first;
  }
  for (size_t a = 0; a < out.axes.size(); ++a)
    if (out.axes[a].name.empty()) out.axes[a].name = "m" + std::to_string(a);
  for (size_t k = 0; k < kinds.size(); ++k) {
    std::string name = out.axes[axes_of_kind[k][0]].name;
    if (axes_of_kind[k].size() > 1) {
      name = "pg" + g.groups[kinds[k]->groups.front()].first;
      workload::Communicator c{name, {}};
      for (size_t a : axes_of_kind[k]) c.axes.push_back(out.axes[a].name);
      out.communicators.push_back(std::move(c));
    }
    for (size_t i : kinds[k]->groups) out.communicator_of[g.groups[i].first] = name;
  }
  const workload::Mesh mesh(out.axes);
  for (size_t k = 0; k < kinds.size(); ++k)
    for (size_t i : kinds[k]->groups)
      if (mesh.group_members(g.groups[i].second.front(), axes_of_kind[k]) != g.groups[i].second)
        throw NotAMesh{"group " + core::quoted_for_message(g.groups[i].first, 24) +
                       " is not a group of the mesh its strides make"};
  return out;
}

/// Adds the groups of kind `kind`, which are not the axes of the mesh for reason `why`, as communicators
/// of listed groups: one communicator for the kind when its groups are disjoint, else one per group.
void add_listed(const CommGroups& g, const Kind& kind, const std::string& why, GroupMesh& out) {
  std::set<uint64_t> seen;
  bool disjoint = true;
  for (size_t i : kind.groups)
    for (uint64_t m : g.groups[i].second) disjoint = seen.insert(m).second && disjoint;
  for (size_t i : kind.groups) {
    const std::string& id = g.groups[i].first;
    if (!disjoint || i == kind.groups.front()) out.communicators.push_back({"pg" + id, {}, {}});
    out.communicators.back().groups.push_back(g.groups[i].second);
    out.communicator_of[id] = out.communicators.back().name;
  }
  std::string ids;
  for (size_t k = 0; k < kind.groups.size() && k < 4; ++k)
    ids += (k == 0 ? "" : ", ") + core::quoted_for_message(g.groups[kind.groups[k]].first, 24);
  if (kind.groups.size() > 4) ids += ", ...";
  out.listed.push_back(ids + " (" + why + ")");
}

}  // namespace

GroupMesh mesh_of_groups(const CommGroups& g, uint64_t ranks) {
  const std::vector<Kind> kinds = kinds_of(g, ranks);
  // Each kind that can be an axis joins the mesh if the mesh still forms with it, in file order.
  std::vector<const Kind*> on_mesh;
  std::vector<std::string> problem(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k) {
    problem[k] = kinds[k].problem;
    if (!problem[k].empty()) continue;
    on_mesh.push_back(&kinds[k]);
    try {
      mesh_of_kinds(g, on_mesh, ranks);
    } catch (const NotAMesh& e) {
      on_mesh.pop_back();
      problem[k] = "not an axis of the mesh the groups before it form: " + e.why;
    }
  }
  GroupMesh out = mesh_of_kinds(g, on_mesh, ranks);
  for (size_t k = 0; k < kinds.size(); ++k)
    if (!problem[k].empty()) add_listed(g, kinds[k], problem[k], out);
  if (out.axes.size() == 1) {
    out.every_rank = out.axes[0].name;
  } else {
    out.every_rank = "rank";
    workload::Communicator all{out.every_rank, {}};
    for (const auto& a : out.axes) all.axes.push_back(a.name);
    out.communicators.push_back(std::move(all));
  }
  return out;
}

}  // namespace zs::chakra
