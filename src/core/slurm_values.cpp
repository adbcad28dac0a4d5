// Slurm's value grammars, checked before a value reaches a script or a command line.
#include "core/slurm_values.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/input_error.hpp"

namespace zs::core {
namespace {

bool alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

/// Whether every character of `s` is alphanumeric or one of `extra`.
bool only(std::string_view s, std::string_view extra) {
  return std::all_of(s.begin(), s.end(),
                     [&](char c) { return alnum(c) || extra.find(c) != std::string_view::npos; });
}

std::vector<std::string_view> split(std::string_view s, char separator) {
  std::vector<std::string_view> parts;
  size_t at = 0;
  for (;;) {
    const size_t next = s.find(separator, at);
    parts.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return parts;
    at = next + 1;
  }
}

bool digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool all_digits(const std::vector<std::string_view>& fields) {
  return std::all_of(fields.begin(), fields.end(), digits);
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::optional<std::string> host_name_problem(std::string_view name) {
  const std::string expected =
      "a host name (letters, digits, '-', '_' and '.', starting with a letter or digit, labels of 1-63 "
      "characters, at most 253 in all)";
  if (name.empty() || name.size() > 253 || !alnum(name.front()) || !only(name, "-_.")) return expected;
  for (std::string_view label : split(name, '.'))
    if (label.empty() || label.size() > 63) return expected;
  return std::nullopt;
}

std::optional<std::string> partition_problem(std::string_view partition) {
  const std::string expected =
      "a Slurm partition (names of letters, digits, '_', '-' and '.', comma-separated, at most 255 "
      "characters)";
  if (partition.empty() || partition.size() > 255) return expected;
  for (std::string_view name : split(partition, ','))
    if (name.empty() || !only(name, "_-.")) return expected;
  return std::nullopt;
}

std::optional<std::string> job_name_problem(std::string_view name) {
  if (name.empty() || name.size() > 128 || !only(name, "_-.+:@"))
    return "a job name (1-128 letters, digits and '_', '-', '.', '+', ':', '@')";
  return std::nullopt;
}

std::optional<std::string> account_problem(std::string_view account) {
  if (account.empty() || account.size() > 255 || !only(account, "_-."))
    return "a Slurm account (letters, digits, '_', '-' and '.', at most 255 characters)";
  return std::nullopt;
}

std::optional<std::string> time_limit_problem(std::string_view time) {
  const std::string expected =
      "a Slurm time limit (minutes, minutes:seconds, hours:minutes:seconds, days-hours, days-hours:minutes, "
      "days-hours:minutes:seconds, or UNLIMITED)";
  if (time.size() > 40) return expected;
  if (const std::string u = upper(time); u == "UNLIMITED" || u == "INFINITE") return std::nullopt;
  const size_t dash = time.find('-');
  if (dash == std::string_view::npos) {
    const auto fields = split(time, ':');
    return fields.size() <= 3 && all_digits(fields) ? std::nullopt : std::optional(expected);
  }
  const auto rest = split(time.substr(dash + 1), ':');
  return digits(time.substr(0, dash)) && rest.size() <= 3 && all_digits(rest) ? std::nullopt
                                                                              : std::optional(expected);
}

std::optional<std::string> sbatch_option_problem(std::string_view option) {
  const std::string expected = std::string("an sbatch option --NAME or --NAME=VALUE with NAME one of ") +
                               kSbatchOptions + " (no control characters)";
  if (!option.starts_with("--") || option.size() > 1024) return expected;
  const size_t equals = option.find('=');
  const std::string_view name = option.substr(2, equals == std::string_view::npos ? equals : equals - 2);
  if (name.empty() || !only(name, "-")) return expected;
  bool known = false;
  for (std::string_view list = kSbatchOptions; !list.empty();) {
    const size_t comma = list.find(',');
    known = known || list.substr(0, comma) == name;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
  }
  if (!known) return expected;
  for (char c : option)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return expected;
  return std::nullopt;
}

void require_slurm_value(const std::optional<std::string>& problem, std::string_view value,
                         const std::string& file, const std::string& json_path) {
  if (!problem) return;
  std::string shown(value.substr(0, 80));
  if (value.size() > 80) shown += "...";
  throw InputError(file, json_path, "expected " + *problem + ", got \"" + shown + "\"");
}

}  // namespace zs::core
