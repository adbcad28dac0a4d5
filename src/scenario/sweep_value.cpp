// What kind of value a parameter of the resolved configuration holds.
#include "scenario/sweep_value.hpp"

#include <cmath>

#include "core/units.hpp"

namespace zs::scenario {
namespace {

/// `text` parsed as the quantity of `kind`, in SI base units, or nothing.
std::optional<double> parse_as(SweepValueKind kind, const std::string& text) {
  try {
    switch (kind) {
      case SweepValueKind::kBytes:
        return core::parse_bytes(text).value();
      case SweepValueKind::kSeconds:
        return core::parse_seconds(text).value();
      case SweepValueKind::kFlops:
        return core::parse_flops(text).value();
      case SweepValueKind::kFlopRate:
        return core::parse_flop_rate(text).value();
      case SweepValueKind::kByteRate:
        return core::parse_byte_rate(text).value();
      case SweepValueKind::kWatts:
        return core::parse_watts(text).value();
      default:
        return std::nullopt;
    }
  } catch (const core::UnitError&) {
    return std::nullopt;
  }
}

constexpr SweepValueKind kQuantities[] = {SweepValueKind::kBytes,    SweepValueKind::kSeconds,
                                          SweepValueKind::kFlops,    SweepValueKind::kFlopRate,
                                          SweepValueKind::kByteRate, SweepValueKind::kWatts};

}  // namespace

SweepValueKind sweep_value_kind(const nlohmann::json& value) {
  if (value.is_boolean()) return SweepValueKind::kBoolean;
  if (value.is_number_integer()) return SweepValueKind::kInteger;
  if (value.is_number()) return SweepValueKind::kNumber;
  if (!value.is_string()) return SweepValueKind::kStructure;
  for (SweepValueKind kind : kQuantities)
    if (parse_as(kind, value.get<std::string>())) return kind;
  return SweepValueKind::kText;
}

bool is_quantity(SweepValueKind kind) {
  for (SweepValueKind q : kQuantities)
    if (q == kind) return true;
  return false;
}

bool is_numeric(SweepValueKind kind) {
  return kind == SweepValueKind::kInteger || kind == SweepValueKind::kNumber || is_quantity(kind);
}

std::string describe(SweepValueKind kind) {
  switch (kind) {
    case SweepValueKind::kInteger:
      return "a whole number";
    case SweepValueKind::kNumber:
      return "a number";
    case SweepValueKind::kBoolean:
      return "true or false";
    case SweepValueKind::kBytes:
      return "a size such as \"80GiB\"";
    case SweepValueKind::kSeconds:
      return "a time such as \"5us\"";
    case SweepValueKind::kFlops:
      return "a FLOP count such as \"1e9FLOP\"";
    case SweepValueKind::kFlopRate:
      return "a FLOP rate such as \"989TFLOP/s\"";
    case SweepValueKind::kByteRate:
      return "a bandwidth such as \"400Gb/s\"";
    case SweepValueKind::kWatts:
      return "a power such as \"700W\"";
    case SweepValueKind::kText:
      return "a string";
    case SweepValueKind::kStructure:
      return "an object or array";
  }
  return "a value";
}

std::string column_unit_suffix(SweepValueKind kind) {
  switch (kind) {
    case SweepValueKind::kBytes:
      return "_B";
    case SweepValueKind::kSeconds:
      return "_s";
    case SweepValueKind::kFlops:
      return "_flop";
    case SweepValueKind::kFlopRate:
      return "_flop_per_s";
    case SweepValueKind::kByteRate:
      return "_B_per_s";
    case SweepValueKind::kWatts:
      return "_w";
    default:
      return "";
  }
}

std::optional<double> numeric_value(SweepValueKind kind, const nlohmann::json& value) {
  if (kind == SweepValueKind::kInteger)
    return value.is_number_integer() ? std::optional<double>(value.get<double>()) : std::nullopt;
  if (kind == SweepValueKind::kNumber)
    return value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
  if (is_quantity(kind) && value.is_string()) return parse_as(kind, value.get<std::string>());
  return std::nullopt;
}

nlohmann::json value_of(SweepValueKind kind, double x) {
  switch (kind) {
    case SweepValueKind::kInteger:
      return static_cast<int64_t>(std::llround(x));
    case SweepValueKind::kBytes:
      return core::to_string(core::Bytes(x));
    case SweepValueKind::kSeconds:
      return core::to_string(core::Seconds(x));
    case SweepValueKind::kFlops:
      return core::to_string(core::Flops(x));
    case SweepValueKind::kFlopRate:
      return core::to_string(core::FlopRate(x));
    case SweepValueKind::kByteRate:
      return core::to_string(core::ByteRate(x));
    case SweepValueKind::kWatts:
      return core::to_string(core::Watts(x));
    default:
      return x;
  }
}

bool fits(SweepValueKind kind, const nlohmann::json& value) {
  switch (kind) {
    case SweepValueKind::kBoolean:
      return value.is_boolean();
    case SweepValueKind::kText:
      return value.is_string();
    case SweepValueKind::kStructure:
      return value.is_object() || value.is_array();
    default:
      return numeric_value(kind, value).has_value();
  }
}

bool same_value(SweepValueKind kind, const nlohmann::json& a, const nlohmann::json& b) {
  if (is_numeric(kind)) {
    const auto x = numeric_value(kind, a), y = numeric_value(kind, b);
    return x && y && *x == *y;
  }
  return a == b;
}

}  // namespace zs::scenario
