// What kind of value a parameter of the resolved configuration holds, so that a sweep can check, order and
// tabulate the values it sets there.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace zs::scenario {

/// The kind of a resolved parameter's value, read from the value itself.
enum class SweepValueKind {
  kInteger,    ///< a whole number (a count)
  kNumber,     ///< a plain number
  kBoolean,    ///< true or false
  kBytes,      ///< a size with its unit ("80GiB")
  kSeconds,    ///< a time with its unit ("5us")
  kFlops,      ///< a FLOP count with its unit
  kFlopRate,   ///< a FLOP rate with its unit ("989TFLOP/s")
  kByteRate,   ///< a bandwidth with its unit ("400Gb/s")
  kWatts,      ///< a power with its unit ("700W")
  kText,       ///< any other string (a name, a policy)
  kStructure,  ///< an object or an array
};

/// The kind of `value`: a string that parses as exactly one kind of quantity is that quantity.
SweepValueKind sweep_value_kind(const nlohmann::json& value);
/// Whether values of `kind` are numbers, with or without a unit (ranges and samples need one).
bool is_numeric(SweepValueKind kind);
/// Whether values of `kind` are quantities written with a unit.
bool is_quantity(SweepValueKind kind);
/// What a value of `kind` looks like, for errors: "a whole number", "a size such as \"80GiB\"".
std::string describe(SweepValueKind kind);
/// The SI unit a table column of `kind` carries as a suffix ("_B", "_s", "_flop_per_s"), "" for none.
std::string column_unit_suffix(SweepValueKind kind);

/// `value` as a number in SI base units (a quantity parsed), or nothing when it is not of `kind`.
std::optional<double> numeric_value(SweepValueKind kind, const nlohmann::json& value);
/// The value of `kind` holding `x` (SI base units), as a file writes it: a quantity in its canonical
/// text, an integer rounded to the nearest whole number.
nlohmann::json value_of(SweepValueKind kind, double x);
/// Whether `value` is a value of `kind` (a quantity string parses as that quantity; an integer is whole).
bool fits(SweepValueKind kind, const nlohmann::json& value);
/// Whether two values of `kind` are the same value (quantities compared as numbers).
bool same_value(SweepValueKind kind, const nlohmann::json& a, const nlohmann::json& b);

}  // namespace zs::scenario
