// nvidia-smi topo -m output.
#include "inventory/gpu_topology_matrix.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>

#include "core/input_error.hpp"

namespace zs::inventory {
namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  return std::string(s.substr(b, s.find_last_not_of(" \t\r") - b + 1));
}

/// Tab-separated cells, trimmed (nvidia-smi pads " X " with spaces).
std::vector<std::string> cells_of(std::string_view line) {
  std::vector<std::string> cells;
  size_t at = 0;
  while (true) {
    size_t end = line.find('\t', at);
    cells.push_back(trim(line.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at)));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return cells;
}

bool numbered(const std::string& name, std::string_view prefix) {
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

bool is_nic_column(const std::string& name) {
  return numbered(name, "NIC") || name.rfind("mlx5_", 0) == 0 || name.rfind("ib", 0) == 0 ||
         name.rfind("bnxt_", 0) == 0 || name.rfind("irdma", 0) == 0;
}

std::optional<GpuPath> path_of(const std::string& cell) {
  using K = GpuPath::Kind;
  static const std::map<std::string, K, std::less<>> kNamed = {
      {"X", K::kSelf},    {"PIX", K::kPix}, {"PXB", K::kPxb}, {"PHB", K::kPhb},
      {"NODE", K::kNode}, {"SYS", K::kSys}, {"SOC", K::kSys}};
  if (auto it = kNamed.find(cell); it != kNamed.end()) return GpuPath{it->second, 0};
  if (numbered(cell, "NV") && cell.size() <= 5)
    return GpuPath{K::kNvlink, static_cast<uint32_t>(std::stoul(cell.substr(2)))};
  return std::nullopt;
}

/// Nearness for choosing a GPU's NIC: NVLink never connects a NIC, so the PCIe kinds order it.
int distance(const GpuPath& p) {
  return static_cast<int>(p.kind);
}

}  // namespace

uint32_t GpuTopologyMatrix::uniform_nvlinks() const {
  uint32_t links = 0;
  for (uint32_t a = 0; a < gpus(); ++a)
    for (uint32_t b = 0; b < gpus(); ++b) {
      if (a == b) continue;
      const auto& p = gpu_to_gpu[a][b];
      if (p.kind != GpuPath::Kind::kNvlink || (links != 0 && p.nvlinks != links)) return 0;
      links = p.nvlinks;
    }
  return links;
}

std::vector<uint32_t> GpuTopologyMatrix::nearest_nic() const {
  std::vector<uint32_t> nearest;
  for (const auto& row : gpu_to_nic) {
    uint32_t best = 0;
    for (uint32_t n = 1; n < row.size(); ++n)
      if (distance(row[n]) < distance(row[best])) best = n;
    nearest.push_back(best);
  }
  return nearest;
}

GpuTopologyMatrix GpuTopologyMatrix::parse(const std::string& text, const std::string& file) {
  GpuTopologyMatrix m;
  m.file = file;
  auto fail = [&](uint32_t line, const std::string& what) {
    return core::InputError(file, "", (line ? "line " + std::to_string(line) + ": " : "") + what);
  };
  std::vector<std::string> columns;                  // GPU and NIC columns of the header, in order
  std::map<std::string, uint32_t> gpu_row, nic_row;  // row index by name (a name seen twice is an error)
  std::map<std::string, std::string> nic_device;
  std::vector<std::vector<GpuPath>> rows;
  std::vector<uint32_t> row_lines;
  uint32_t number = 0;
  bool in_legend = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++number;
    const std::string trimmed = trim(line);
    if (trimmed.empty()) continue;
    if (trimmed.rfind("Legend", 0) == 0 || trimmed.rfind("NIC Legend", 0) == 0) in_legend = true;
    if (in_legend) {  // "NIC0: mlx5_0"
      const auto colon = trimmed.find(':');
      if (colon != std::string::npos && numbered(trimmed.substr(0, colon), "NIC"))
        nic_device[trimmed.substr(0, colon)] = trim(std::string_view(trimmed).substr(colon + 1));
      continue;
    }
    auto cells = cells_of(line);
    if (columns.empty()) {
      if (cells.empty() || !cells[0].empty() || cells.size() < 2 || !numbered(cells[1], "GPU"))
        throw fail(number, "expected the header of nvidia-smi topo -m (a tab, then GPU0, GPU1, ...)");
      for (size_t c = 1; c < cells.size() && (numbered(cells[c], "GPU") || is_nic_column(cells[c])); ++c)
        columns.push_back(cells[c]);
      continue;
    }
    const std::string& name = cells[0];
    if (!numbered(name, "GPU") && !is_nic_column(name))
      throw fail(number, "expected a row of a GPU or a NIC, got \"" + name + "\"");
    if (cells.size() < columns.size() + 1)
      throw fail(number, "expected " + std::to_string(columns.size()) + " cells after " + name + ", got " +
                             std::to_string(cells.size() - 1));
    std::vector<GpuPath> row;
    for (size_t c = 0; c < columns.size(); ++c) {
      auto p = path_of(cells[c + 1]);
      if (!p)
        throw fail(number, "column " + columns[c] + ": unknown connection \"" + cells[c + 1] +
                               "\" (expected X, NV<n>, PIX, PXB, PHB, NODE or SYS)");
      row.push_back(*p);
    }
    auto& index = numbered(name, "GPU") ? gpu_row : nic_row;
    if (!index.emplace(name, static_cast<uint32_t>(rows.size())).second)
      throw fail(number, "row " + name + " appears twice");
    rows.push_back(std::move(row));
    row_lines.push_back(number);
  }
  if (columns.empty()) throw fail(0, "expected the output of nvidia-smi topo -m: no header line");
  std::vector<size_t> gpu_cols, nic_cols;
  for (size_t c = 0; c < columns.size(); ++c)
    (numbered(columns[c], "GPU") ? gpu_cols : nic_cols).push_back(c);
  if (nic_cols.empty())
    throw fail(
        0, "no NIC column: the planner needs each GPU's NIC (nvidia-smi topo -m on a node with its NICs)");
  for (size_t g = 0; g < gpu_cols.size(); ++g) {
    auto it = gpu_row.find(columns[gpu_cols[g]]);
    if (it == gpu_row.end()) throw fail(0, "no row for " + columns[gpu_cols[g]]);
    const auto& row = rows[it->second];
    std::vector<GpuPath> to_gpu, to_nic;
    for (size_t c : gpu_cols) to_gpu.push_back(row[c]);
    for (size_t c : nic_cols) to_nic.push_back(row[c]);
    if (to_gpu[g].kind != GpuPath::Kind::kSelf)
      throw fail(row_lines[it->second], columns[gpu_cols[g]] + " is not X (self) in its own column");
    m.gpu_to_gpu.push_back(std::move(to_gpu));
    m.gpu_to_nic.push_back(std::move(to_nic));
  }
  for (size_t a = 0; a < gpu_cols.size(); ++a)
    for (size_t b = 0; b < gpu_cols.size(); ++b) {
      const auto &x = m.gpu_to_gpu[a][b], &y = m.gpu_to_gpu[b][a];
      if (x.kind != y.kind || x.nvlinks != y.nvlinks)
        throw fail(row_lines[gpu_row[columns[gpu_cols[a]]]],
                   columns[gpu_cols[a]] + " and " + columns[gpu_cols[b]] + " disagree on how they connect");
    }
  for (size_t c : nic_cols) {
    auto it = nic_device.find(columns[c]);
    m.nics.push_back(it != nic_device.end() ? it->second : columns[c]);
  }
  return m;
}

}  // namespace zs::inventory
