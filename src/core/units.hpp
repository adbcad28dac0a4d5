// Strong unit types (bytes, seconds, FLOPs and their rates) with exact parsing and printing.
#pragma once

#include <compare>
#include <stdexcept>
#include <string>
#include <string_view>

namespace zs::core {

/// A value of one physical dimension, stored as a double in the dimension's base unit.
/// Tag selects the dimension so that, say, Bytes and Seconds cannot be mixed up.
template <class Tag>
class Quantity {
 public:
  constexpr Quantity() = default;
  constexpr explicit Quantity(double base_units) : value_(base_units) {}

  /// The value in the base unit (bytes, seconds, FLOP, FLOP/s or bytes/s).
  constexpr double value() const { return value_; }

  constexpr Quantity operator+(Quantity o) const { return Quantity(value_ + o.value_); }
  constexpr Quantity operator-(Quantity o) const { return Quantity(value_ - o.value_); }
  constexpr Quantity operator*(double k) const { return Quantity(value_ * k); }
  constexpr Quantity operator/(double k) const { return Quantity(value_ / k); }
  constexpr double operator/(Quantity o) const { return value_ / o.value_; }
  constexpr Quantity& operator+=(Quantity o) {
    value_ += o.value_;
    return *this;
  }
  constexpr auto operator<=>(const Quantity&) const = default;

 private:
  double value_ = 0.0;
};

struct BytesTag {};
struct SecondsTag {};
struct FlopsTag {};
struct FlopRateTag {};
struct ByteRateTag {};
struct WattsTag {};
struct JoulesTag {};

using Bytes = Quantity<BytesTag>;        ///< bytes (B)
using Seconds = Quantity<SecondsTag>;    ///< seconds (s)
using Flops = Quantity<FlopsTag>;        ///< floating-point operations (FLOP), a count
using FlopRate = Quantity<FlopRateTag>;  ///< FLOP per second (FLOP/s)
using ByteRate = Quantity<ByteRateTag>;  ///< bytes per second (B/s)
using Watts = Quantity<WattsTag>;        ///< power (W)
using Joules = Quantity<JoulesTag>;      ///< energy (J)

/// The values an input quantity of one dimension can physically take: zero where its parameter allows it,
/// else from `min` to `max` (base units). Wide enough for any machine of this century, narrow enough that
/// no product or ratio of two inputs leaves the range of a double.
struct PhysicalRange {
  double min = 0;
  double max = 0;
};
template <class Q>
constexpr PhysicalRange physical_range();
template <>
constexpr PhysicalRange physical_range<Bytes>() {
  return {1e-3, 1e24};
}  ///< a millibyte to a yottabyte
template <>
constexpr PhysicalRange physical_range<Seconds>() {
  return {1e-15, 1e18};
}  ///< a femtosecond to 3e10 years
template <>
constexpr PhysicalRange physical_range<Flops>() {
  return {1.0, 1e30};
}
template <>
constexpr PhysicalRange physical_range<FlopRate>() {
  return {1.0, 1e21};
}  ///< to a zettaFLOP/s
template <>
constexpr PhysicalRange physical_range<ByteRate>() {
  return {0.125, 1e16};
}  ///< a bit per second to 10 PB/s
template <>
constexpr PhysicalRange physical_range<Watts>() {
  return {1e-3, 1e9};
}  ///< a milliwatt to a gigawatt

constexpr Seconds operator/(Bytes b, ByteRate r) {
  return Seconds(b.value() / r.value());
}
constexpr Seconds operator/(Flops f, FlopRate r) {
  return Seconds(f.value() / r.value());
}
constexpr ByteRate operator/(Bytes b, Seconds t) {
  return ByteRate(b.value() / t.value());
}
constexpr FlopRate operator/(Flops f, Seconds t) {
  return FlopRate(f.value() / t.value());
}
constexpr Bytes operator*(ByteRate r, Seconds t) {
  return Bytes(r.value() * t.value());
}
constexpr Joules operator*(Watts p, Seconds t) {
  return Joules(p.value() * t.value());
}

/// A text that is not a valid quantity of the expected dimension; what() says what was expected.
class UnitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parsing. The grammar is: number, optional single space, unit. Units are case-sensitive.
// - SI prefixes k M G T P E Z are powers of 1000; binary prefixes Ki Mi Gi Ti Pi Ei are powers of 1024.
// - "KB" is rejected as ambiguous (JEDEC 1024 vs SI 1000): write "kB" or "KiB".
// - A lower-case "b" is a bit (1/8 byte): "400Gb/s" is 50e9 B/s.
// - FLOP rates are "FLOPS" or "FLOP/s"; "FLOPs" is rejected as ambiguous (a count or a rate?).
// - Times: ps ns us µs ms s min h d y (a Julian year, 365.25 d).
// - Power: W with SI prefixes (k M G): "700W", "1.2kW".
// Decimal values are converted with one correct rounding (the mantissa and the power of ten are
// parsed together), binary prefixes multiply by an exact power of two.
Bytes parse_bytes(std::string_view text);
Seconds parse_seconds(std::string_view text);
Flops parse_flops(std::string_view text);
FlopRate parse_flop_rate(std::string_view text);
ByteRate parse_byte_rate(std::string_view text);
Watts parse_watts(std::string_view text);

// Exact printing: parse_x(to_string(q)) == q for every finite q.
// Sizes use binary prefixes ("80GiB"), rates SI prefixes ("3.35TB/s", "989TFLOP/s").
std::string to_string(Bytes q);
std::string to_string(Seconds q);
std::string to_string(Flops q);
std::string to_string(FlopRate q);
std::string to_string(ByteRate q);
std::string to_string(Watts q);

// Human display with 4 significant digits and a space ("1.234 ms"); not meant to be parsed back.
std::string display(Bytes q);
std::string display(Seconds q);
std::string display(Flops q);
std::string display(FlopRate q);
std::string display(ByteRate q);
std::string display(Watts q);
std::string display(Joules q);
/// `q` with 4 significant digits in the unit display() gives `scale` ("0.5 GiB" next to "80 GiB"), so that
/// quantities compared in one message share one unit.
std::string display_in(Bytes q, Bytes scale);

}  // namespace zs::core
