// Parsing and printing of the strong unit types.
#include "core/units.hpp"

#include "core/file_name.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace zs::core {
namespace {

/// How a unit scales its mantissa: value = mantissa * 10^pow10 * 2^pow2 * factor.
struct Scale {
  int pow10 = 0;
  int pow2 = 0;
  double factor = 1.0;  ///< only for units that are not a power of ten or two (min, h, d)
};

struct Prefix {
  std::string_view symbol;
  Scale scale;
};

constexpr std::array<Prefix, 8> kSiPrefixes{{{"", {0, 0}},
                                             {"k", {3, 0}},
                                             {"M", {6, 0}},
                                             {"G", {9, 0}},
                                             {"T", {12, 0}},
                                             {"P", {15, 0}},
                                             {"E", {18, 0}},
                                             {"Z", {21, 0}}}};
constexpr std::array<Prefix, 6> kBinaryPrefixes{
    {{"Ki", {0, 10}}, {"Mi", {0, 20}}, {"Gi", {0, 30}}, {"Ti", {0, 40}}, {"Pi", {0, 50}}, {"Ei", {0, 60}}}};

struct SplitText {
  std::string_view digits;  ///< the mantissa without its exponent, e.g. "1.5"
  int exponent = 0;         ///< the mantissa's own decimal exponent, e.g. 3 for "1.5e3"
  std::string_view unit;
};

/// User text in a message: quoted, escaped, one line, cut.
std::string quoted(std::string_view s) {
  return quoted_for_message(s);
}

std::optional<SplitText> split_number(std::string_view text) {
  size_t i = 0;
  auto digit = [&](size_t k) { return k < text.size() && text[k] >= '0' && text[k] <= '9'; };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits_seen = 0;
  while (digit(i)) ++i, ++digits_seen;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (digit(i)) ++i, ++digits_seen;
  }
  if (digits_seen == 0) return std::nullopt;
  SplitText out;
  out.digits = text.substr(0, i);
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E') &&
      (digit(i + 1) ||
       ((i + 2) < text.size() && (text[i + 1] == '-' || text[i + 1] == '+') && digit(i + 2)))) {
    size_t start = i + 1;
    i = start + 1;
    while (digit(i)) ++i;
    std::string_view exp_text = text.substr(start, i - start);
    if (exp_text.front() == '+') exp_text.remove_prefix(1);
    auto [ptr, ec] = std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), out.exponent);
    if (ec != std::errc() || ptr != exp_text.data() + exp_text.size()) return std::nullopt;
  }
  if (i < text.size() && text[i] == ' ') ++i;
  out.unit = text.substr(i);
  return out;
}

/// Mantissa times scale with a single correct rounding for the decimal part. The exponents add in 64 bits
/// (an int sum could wrap); a result beyond double's range is infinite, one below it 0 (both refused).
double apply_scale(const SplitText& s, const Scale& scale) {
  const int64_t exponent = int64_t(s.exponent) + scale.pow10;
  std::string decimal = std::string(s.digits) + "e" + std::to_string(exponent);
  double v = std::strtod(decimal.c_str(), nullptr);
  v = std::ldexp(v, scale.pow2);
  return v * scale.factor;
}

/// Finds the prefix of a unit whose remaining symbol is `base`; returns its scale.
std::optional<Scale> match_prefixed(std::string_view unit, std::string_view base, bool allow_binary) {
  if (unit.size() < base.size() || unit.substr(unit.size() - base.size()) != base) return std::nullopt;
  std::string_view prefix = unit.substr(0, unit.size() - base.size());
  for (const auto& p : kSiPrefixes)
    if (p.symbol == prefix) return p.scale;
  if (allow_binary)
    for (const auto& p : kBinaryPrefixes)
      if (p.symbol == prefix) return p.scale;
  return std::nullopt;
}

using UnitMatcher = std::function<std::optional<Scale>(std::string_view unit)>;

double parse_with(std::string_view text, std::string_view what, std::string_view examples,
                  const UnitMatcher& match) {
  auto split = split_number(text);
  if (!split)
    throw UnitError(quoted(text) + " is not " + std::string(what) + ": expected a number then a unit, " +
                    std::string(examples));
  if (split->unit.empty())
    throw UnitError(quoted(text) + " has no unit: expected " + std::string(what) + ", " +
                    std::string(examples));
  std::optional<Scale> scale;
  try {
    scale = match(split->unit);
  } catch (const UnitError& e) {
    throw UnitError(quoted(text) + ": " + e.what());
  }
  if (!scale)
    throw UnitError(quoted(text) + ": unknown unit " + quoted(split->unit) + " for " + std::string(what) +
                    ", " + std::string(examples));
  double v = apply_scale(*split, *scale);
  if (!std::isfinite(v)) throw UnitError(quoted(text) + " is out of range for " + std::string(what));
  if (v == 0 && std::strtod(std::string(split->digits).c_str(), nullptr) != 0)
    throw UnitError(quoted(text) + " is too small to represent (it would be read as 0)");
  return v;
}

std::optional<Scale> match_bytes(std::string_view unit) {
  if (unit == "KB" || unit == "Kb")
    throw UnitError("\"K\" is ambiguous (JEDEC 1024 or SI 1000): write \"k\" for 1000 or \"Ki\" for 1024");
  if (auto s = match_prefixed(unit, "B", true)) return s;
  if (auto s = match_prefixed(unit, "b", true)) return Scale{s->pow10, s->pow2 - 3};  // a bit is 2^-3 bytes
  return std::nullopt;
}

std::optional<Scale> match_byte_rate(std::string_view unit) {
  if (unit.size() < 3 || unit.substr(unit.size() - 2) != "/s") return std::nullopt;
  return match_bytes(unit.substr(0, unit.size() - 2));
}

std::optional<Scale> match_flops(std::string_view unit) {
  if (unit.ends_with("FLOPS") || unit.ends_with("FLOPs") || unit.ends_with("FLOP/s"))
    return std::nullopt;  // a rate where a count is expected
  return match_prefixed(unit, "FLOP", false);
}

std::optional<Scale> match_flop_rate(std::string_view unit) {
  if (unit.ends_with("FLOPs"))
    throw UnitError("\"FLOPs\" is ambiguous (a count or a rate?): write \"FLOPS\" or \"FLOP/s\" for a rate");
  if (auto s = match_prefixed(unit, "FLOP/s", false)) return s;
  return match_prefixed(unit, "FLOPS", false);
}

std::optional<Scale> match_watts(std::string_view unit) {
  if (unit.empty() || unit.back() != 'W') return std::nullopt;
  return match_prefixed(unit, "W", false);
}

std::optional<Scale> match_seconds(std::string_view unit) {
  struct TimeUnit {
    std::string_view symbol;
    Scale scale;
  };
  static constexpr std::array<TimeUnit, 10> kUnits{{{"ps", {-12, 0}},
                                                    {"ns", {-9, 0}},
                                                    {"us", {-6, 0}},
                                                    {"\u00b5s", {-6, 0}},
                                                    {"ms", {-3, 0}},
                                                    {"s", {0, 0}},
                                                    {"min", {0, 0, 60.0}},
                                                    {"h", {0, 0, 3600.0}},
                                                    {"d", {0, 0, 86400.0}},
                                                    {"y", {0, 0, 31557600.0}}}};
  for (const auto& u : kUnits)
    if (u.symbol == unit) return u.scale;
  return std::nullopt;
}

std::string shortest(double v) {
  std::array<char, 64> buf{};
  auto [ptr, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), ptr);
}

/// The shortest text of `mantissa` (1 to 17 significant digits) for which parse(text + suffix) == v.
/// Whether `text` parses back to `v` (a rounded text beyond the parser's range does not).
bool parses_to(const std::function<double(std::string_view)>& parse, const std::string& text, double v) {
  try {
    return parse(text) == v;
  } catch (const UnitError&) {
    return false;
  }
}

std::optional<std::string> shortest_round_trip(double v, double mantissa, const std::string& suffix,
                                               const std::function<double(std::string_view)>& parse) {
  std::optional<std::string> best;
  for (int digits = 1; digits <= 17; ++digits) {
    std::array<char, 64> buf{};
    std::snprintf(buf.data(), buf.size(), "%.*g", digits, mantissa);
    std::string candidate = std::string(buf.data()) + suffix;
    if ((!best || candidate.size() < best->size()) && parses_to(parse, candidate, v)) best = candidate;
  }
  return best;
}

/// Prints v exactly: among the forms (unit, scale) that parse back to v, the shortest text;
/// on ties the later (larger) unit wins.
std::string format_exact(double v, const std::vector<std::pair<std::string, double>>& units,
                         const std::function<double(std::string_view)>& parse) {
  std::string best = shortest(v) + units.front().first;
  if (v == 0.0 || !std::isfinite(v)) return best;
  for (const auto& [unit, scale] : units) {
    double mantissa = v / scale;
    if (!std::isfinite(mantissa)) continue;  // 1e300 s has no finite count of ps
    if (std::fabs(mantissa) < 1.0 && scale != units.front().second) continue;
    auto candidate = shortest_round_trip(v, mantissa, unit, parse);
    if (candidate && candidate->size() <= best.size()) best = *candidate;
  }
  return best;
}

/// Units with SI (and optionally binary) prefixes of a base unit, smallest first.
std::vector<std::pair<std::string, double>> prefixed_units(std::string_view base, bool allow_binary) {
  std::vector<std::pair<std::string, double>> out;
  for (const auto& p : kSiPrefixes)
    out.emplace_back(std::string(p.symbol) + std::string(base), std::pow(10.0, p.scale.pow10));
  if (allow_binary)
    for (const auto& p : kBinaryPrefixes)
      out.emplace_back(std::string(p.symbol) + std::string(base), std::ldexp(1.0, p.scale.pow2));
  return out;
}

std::string four_digits(double mantissa, std::string_view unit) {
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%.4g %s", mantissa, std::string(unit).c_str());
  return buf.data();
}

std::string display_si(double v, std::string_view base_unit) {
  const Prefix* chosen = &kSiPrefixes[0];
  for (const auto& p : kSiPrefixes)
    if (std::fabs(v) >= std::pow(10.0, p.scale.pow10)) chosen = &p;
  return four_digits(v / std::pow(10.0, chosen->scale.pow10),
                     std::string(chosen->symbol) + std::string(base_unit));
}

constexpr std::string_view kSizeExamples =
    "such as \"80GiB\", \"1.5TB\" or \"512B\" (k M G T P E: powers of 1000; Ki Mi Gi Ti Pi Ei: powers of "
    "1024; "
    "b: bit)";
constexpr std::string_view kRateExamples = "such as \"3.35TB/s\", \"400Gb/s\" or \"64GiB/s\"";
constexpr std::string_view kTimeExamples = "such as \"1.5us\", \"10ms\" or \"3h\" (ps ns us ms s min h d)";
constexpr std::string_view kFlopExamples = "such as \"3.5PFLOP\" (SI prefixes k M G T P E Z)";
constexpr std::string_view kPowerExamples = "such as \"700W\" or \"1.2kW\"";
constexpr std::string_view kFlopRateExamples = "such as \"989TFLOPS\" or \"1.2PFLOP/s\"";

}  // namespace

Bytes parse_bytes(std::string_view t) {
  return Bytes(parse_with(t, "a size", kSizeExamples, match_bytes));
}
Seconds parse_seconds(std::string_view t) {
  return Seconds(parse_with(t, "a time", kTimeExamples, match_seconds));
}
Flops parse_flops(std::string_view t) {
  return Flops(parse_with(t, "a FLOP count", kFlopExamples, match_flops));
}
FlopRate parse_flop_rate(std::string_view t) {
  return FlopRate(parse_with(t, "a FLOP rate", kFlopRateExamples, match_flop_rate));
}
ByteRate parse_byte_rate(std::string_view t) {
  return ByteRate(parse_with(t, "a bandwidth", kRateExamples, match_byte_rate));
}
Watts parse_watts(std::string_view t) {
  return Watts(parse_with(t, "a power", kPowerExamples, match_watts));
}

std::string to_string(Bytes q) {
  return format_exact(q.value(), prefixed_units("B", true),
                      [](std::string_view s) { return parse_bytes(s).value(); });
}
std::string to_string(Seconds q) {
  // min, h, d and y are accepted on input only.
  return format_exact(q.value(), {{"s", 1.0}, {"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}},
                      [](std::string_view s) { return parse_seconds(s).value(); });
}
std::string to_string(Flops q) {
  return format_exact(q.value(), prefixed_units("FLOP", false),
                      [](std::string_view s) { return parse_flops(s).value(); });
}
std::string to_string(FlopRate q) {
  return format_exact(q.value(), prefixed_units("FLOP/s", false),
                      [](std::string_view s) { return parse_flop_rate(s).value(); });
}
std::string to_string(ByteRate q) {
  return format_exact(q.value(), prefixed_units("B/s", true),
                      [](std::string_view s) { return parse_byte_rate(s).value(); });
}

std::string to_string(Watts q) {
  return format_exact(q.value(), prefixed_units("W", false),
                      [](std::string_view s) { return parse_watts(s).value(); });
}

std::string display(Bytes q) {
  return display_in(q, q);
}
std::string display_in(Bytes q, Bytes scale) {
  double v = q.value();
  std::string_view unit = "B";
  for (const auto& p : kBinaryPrefixes)
    if (std::fabs(scale.value()) >= std::ldexp(1.0, p.scale.pow2)) {
      v = std::ldexp(q.value(), -p.scale.pow2);
      unit = p.symbol;
    }
  return four_digits(v, unit == "B" ? std::string("B") : std::string(unit) + "B");
}
std::string display(Seconds q) {
  double v = q.value(), a = std::fabs(v);
  if (a == 0.0) return "0 s";
  if (a < 1e-6) return four_digits(v * 1e9, "ns");
  if (a < 1e-3) return four_digits(v * 1e6, "us");
  if (a < 1.0) return four_digits(v * 1e3, "ms");
  if (a < 3600.0) return four_digits(v, "s");
  if (a < 2 * 86400.0) return four_digits(v / 3600.0, "h");
  return four_digits(v / 86400.0, "d");
}
std::string display(Flops q) {
  return display_si(q.value(), "FLOP");
}
std::string display(FlopRate q) {
  return display_si(q.value(), "FLOP/s");
}
std::string display(ByteRate q) {
  return display_si(q.value(), "B/s");
}
std::string display(Watts q) {
  return display_si(q.value(), "W");
}
std::string display(Joules q) {
  return display_si(q.value(), "J");
}

}  // namespace zs::core
