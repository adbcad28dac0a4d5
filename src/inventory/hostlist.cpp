// Slurm hostlist expressions ("gpu[001-128,130],login1"): expanded to host names and compressed back, as
// Slurm's scontrol show hostnames and show hostlist do.
#include "inventory/hostlist.hpp"

#include <optional>
#include <stdexcept>

#include "core/input_error.hpp"
#include "core/slurm_values.hpp"

namespace zs::inventory {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

/// A number as written: its value and its width (leading zeros included).
struct Written {
  uint64_t value = 0;
  size_t width = 0;
};

Written parse_number(std::string_view text, std::string_view item) {
  if (text.empty() || text.size() > 18)
    throw std::invalid_argument("\"" + std::string(item) +
                                "\": expected a number of 1 to 18 digits in brackets");
  Written w{0, text.size()};
  for (char c : text) {
    if (!is_digit(c))
      throw std::invalid_argument("\"" + std::string(item) + "\": \"" + std::string(text) +
                                  "\" is not a number");
    w.value = w.value * 10 + uint64_t(c - '0');
  }
  return w;
}

std::string padded(uint64_t value, size_t width) {
  std::string digits = std::to_string(value);
  return digits.size() < width ? std::string(width - digits.size(), '0') + digits : digits;
}

/// The numbers of one bracket's content ("001-003,7"), each as text.
std::vector<std::string> bracket_values(std::string_view content, std::string_view item) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= content.size()) {
    const size_t comma = std::min(content.find(',', start), content.size());
    const std::string_view part = content.substr(start, comma - start);
    const size_t dash = part.find('-');
    const Written lo = parse_number(part.substr(0, dash), item);
    const Written hi = dash == std::string_view::npos ? lo : parse_number(part.substr(dash + 1), item);
    if (hi.value < lo.value)
      throw std::invalid_argument("\"" + std::string(item) + "\": range " + std::string(part) +
                                  " runs backwards");
    if (hi.value - lo.value >= kMaxHostlistHosts)
      throw std::invalid_argument("\"" + std::string(item) + "\": range " + std::string(part) +
                                  " is too long");
    for (uint64_t v = lo.value; v <= hi.value; ++v) out.push_back(padded(v, lo.width));
    start = comma + 1;
  }
  return out;
}

/// The names one item ("r[1-2]n[01-02]") stands for, appended to `out`.
void expand_item(std::string_view item, std::vector<std::string>& out) {
  std::vector<std::string> names{""};
  size_t at = 0;
  while (at < item.size()) {
    const size_t open = item.find('[', at);
    if (open == std::string_view::npos) {
      if (names.size() > 1 || at > 0)
        throw std::invalid_argument("\"" + std::string(item) + "\": text after the last bracket");
      for (auto& n : names) n += item.substr(at);
      break;
    }
    const size_t close = item.find(']', open);
    if (close == std::string_view::npos || item.find('[', open + 1) < close)
      throw std::invalid_argument("\"" + std::string(item) + "\": a '[' without its ']'");
    const std::string_view text = item.substr(at, open - at);
    if (text.find(']') != std::string_view::npos)
      throw std::invalid_argument("\"" + std::string(item) + "\": a ']' without its '['");
    const auto values = bracket_values(item.substr(open + 1, close - open - 1), item);
    if (names.size() * values.size() + out.size() > kMaxHostlistHosts)
      throw std::invalid_argument("the expression names more than " + std::to_string(kMaxHostlistHosts) +
                                  " hosts");
    std::vector<std::string> longer;
    longer.reserve(names.size() * values.size());
    for (const auto& n : names)
      for (const auto& v : values) longer.push_back(n + std::string(text) + v);
    names = std::move(longer);
    at = close + 1;
  }
  out.insert(out.end(), names.begin(), names.end());
}

/// A host name split before its trailing number, if it has one.
struct Split {
  std::string prefix;
  std::optional<Written> number;
};

Split split(const std::string& host) {
  size_t digits = host.size();
  while (digits > 0 && is_digit(host[digits - 1])) --digits;
  if (digits == host.size() || host.size() - digits > 18) return {host, std::nullopt};
  return {host.substr(0, digits), parse_number(std::string_view(host).substr(digits), host)};
}

/// Whether `next` continues a run ending at `last`: the next number, written at the same width, or both
/// without padding (9 then 10).
bool continues(const Written& last, const Written& next) {
  if (next.value != last.value + 1) return false;
  const auto natural = [](const Written& w) { return std::to_string(w.value).size() == w.width; };
  return next.width == last.width || (natural(last) && natural(next));
}

/// One bracket group: a prefix and its numbers in order, written as ranges.
std::string group_text(const std::string& prefix, const std::vector<Written>& numbers) {
  if (numbers.size() == 1) return prefix + padded(numbers[0].value, numbers[0].width);
  std::string ranges;
  for (size_t i = 0; i < numbers.size();) {
    size_t j = i;
    while (j + 1 < numbers.size() && continues(numbers[j], numbers[j + 1])) ++j;
    ranges += (ranges.empty() ? "" : ",") + padded(numbers[i].value, numbers[i].width);
    if (j > i) ranges += "-" + padded(numbers[j].value, numbers[j].width);
    i = j + 1;
  }
  return prefix + "[" + ranges + "]";
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expression) {
  std::vector<std::string> out;
  size_t start = 0, depth = 0;
  for (size_t i = 0; i <= expression.size(); ++i) {
    const char c = i < expression.size() ? expression[i] : ',';
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c != ',' || depth > 0) continue;
    if (i > start) expand_item(expression.substr(start, i - start), out);
    start = i + 1;
  }
  if (depth > 0) throw std::invalid_argument("\"" + std::string(expression) + "\": a '[' without its ']'");
  for (const auto& name : out)
    if (const auto problem = core::host_name_problem(name))
      throw std::invalid_argument("\"" + core::one_line(name) + "\" is not " + *problem);
  return out;
}

std::string compress_hostlist(const std::vector<std::string>& hosts) {
  std::string out;
  for (size_t i = 0; i < hosts.size();) {
    const Split first = split(hosts[i]);
    if (!first.number) {
      out += (out.empty() ? "" : ",") + hosts[i++];
      continue;
    }
    std::vector<Written> numbers{*first.number};
    size_t j = i + 1;
    for (; j < hosts.size(); ++j) {
      const Split next = split(hosts[j]);
      if (!next.number || next.prefix != first.prefix) break;
      numbers.push_back(*next.number);
    }
    out += (out.empty() ? "" : ",") + group_text(first.prefix, numbers);
    i = j;
  }
  return out;
}

}  // namespace zs::inventory
