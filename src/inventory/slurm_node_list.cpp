// `scontrol show nodes --oneliner` lines.
#include "inventory/slurm_node_list.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "core/input_error.hpp"
#include "core/slurm_values.hpp"

namespace zs::inventory {
namespace {

/// Whether a word starts a new field: letters, digits or '_' before the first '=', starting with a letter.
bool starts_field(std::string_view word) {
  const auto eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0 || !std::isalpha(static_cast<unsigned char>(word[0])))
    return false;
  return std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::map<std::string, std::string> fields_of(std::string_view line) {
  std::map<std::string, std::string> fields;
  std::string* last = nullptr;
  size_t at = 0;
  while (at < line.size()) {
    while (at < line.size() && line[at] == ' ') ++at;
    if (at >= line.size()) break;
    size_t end = line.find(' ', at);
    if (end == std::string_view::npos) end = line.size();
    const std::string_view word = line.substr(at, end - at);
    if (starts_field(word)) {
      const auto eq = word.find('=');
      const std::string key(word.substr(0, eq));
      if (key == "Reason") {  // the rest of the line, spaces and '=' included
        fields[key] = std::string(line.substr(at + eq + 1));
        break;
      }
      last = &fields[key];
      *last = std::string(word.substr(eq + 1));
    } else if (last != nullptr) {
      *last += " " + std::string(word);
    }
    at = end;
  }
  return fields;
}

/// The comma-separated entries of a Gres= value, with the "(S:0-1)" socket suffixes dropped.
std::vector<std::string> gres_entries(const std::string& gres) {
  std::vector<std::string> entries(1);
  int depth = 0;
  for (char c : gres) {
    if (c == '(') ++depth;
    if (depth == 0 && c == ',') {
      entries.emplace_back();
    } else if (depth == 0) {
      entries.back() += c;
    }
    if (c == ')' && depth > 0) --depth;
  }
  return entries;
}

void read_gres(const std::string& gres, SlurmNode& node, const std::string& file) {
  auto fail = [&](const std::string& what) {
    return core::InputError(
        file, "",
        "line " + std::to_string(node.line) + ": node " + node.name + ": Gres=" + gres + ": " + what);
  };
  if (gres == "(null)" || gres.empty()) return;
  for (const auto& entry : gres_entries(gres)) {
    std::vector<std::string> parts(1);
    for (char c : entry) {
      if (c == ':')
        parts.emplace_back();
      else
        parts.back().push_back(c);
    }
    if (parts[0] != "gpu") continue;
    if (parts.size() < 2 || parts.size() > 3) throw fail("expected gpu:COUNT or gpu:TYPE:COUNT");
    const std::string& count = parts.back();
    if (count.empty() || count.size() > 6 || !std::all_of(count.begin(), count.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        }))
      throw fail("the GPU count \"" + count + "\" is not a whole number");
    const std::string type = parts.size() == 3 ? parts[1] : "";
    if (node.gpus > 0 && type != node.gpu_type)
      throw fail("two GPU types on one node (\"" + node.gpu_type + "\" and \"" + type +
                 "\"): the planner takes one GPU type per node");
    node.gpu_type = type;
    node.gpus += static_cast<uint32_t>(std::stoul(count));
  }
}

}  // namespace

bool SlurmNode::usable() const {
  static const std::set<std::string, std::less<>> kHealthy = {"IDLE",     "ALLOCATED", "MIXED", "COMPLETING",
                                                              "RESERVED", "PLANNED",   "CLOUD"};
  if (state.empty()) return false;
  size_t at = 0;
  while (at <= state.size()) {
    size_t end = state.find('+', at);
    if (end == std::string::npos) end = state.size();
    if (!kHealthy.count(std::string_view(state).substr(at, end - at))) return false;
    at = end + 1;
  }
  return true;
}

std::vector<SlurmNode> parse_slurm_node_list(const std::string& text, const std::string& file) {
  std::vector<SlurmNode> nodes;
  std::map<std::string, uint32_t> line_of;
  uint32_t number = 0;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    auto fields = fields_of(line);
    auto need = [&](const char* key) -> std::string& {
      auto it = fields.find(key);
      if (it == fields.end() || it->second.empty())
        throw core::InputError(file, "",
                               "line " + std::to_string(number) + ": expected " + key +
                                   "= (a node line as scontrol show nodes --oneliner prints it)");
      return it->second;
    };
    SlurmNode node;
    node.line = number;
    node.name = need("NodeName");
    if (const auto problem = core::host_name_problem(node.name))
      throw core::InputError(file, "",
                             "line " + std::to_string(number) + ": NodeName: expected " + *problem +
                                 ", got \"" + node.name + "\"");
    node.state = need("State");
    if (auto [it, fresh] = line_of.emplace(node.name, number); !fresh)
      throw core::InputError(file, "",
                             "line " + std::to_string(number) + ": node " + node.name +
                                 " is already listed on line " + std::to_string(it->second));
    if (auto it = fields.find("Reason"); it != fields.end()) node.reason = it->second;
    if (auto it = fields.find("Gres"); it != fields.end()) read_gres(it->second, node, file);
    nodes.push_back(std::move(node));
  }
  return nodes;
}

}  // namespace zs::inventory
