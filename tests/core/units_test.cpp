// Units: exact parsing with SI and binary prefixes, exact round trips, and every error class.
#include <doctest/doctest.h>

#include <cmath>

#include "core/units.hpp"
#include "support/approx.hpp"

using namespace zs::core;

namespace {
/// The message of the UnitError that parsing `text` raises.
template <class Parse>
std::string unit_error(Parse parse, const std::string& text) {
  try {
    parse(text);
  } catch (const UnitError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("sizes parse exactly with SI and binary prefixes") {
  CHECK(parse_bytes("80GiB").value() == 80.0 * 1024 * 1024 * 1024);
  CHECK(parse_bytes("80GB").value() == 80e9);
  CHECK(parse_bytes("1.5KiB").value() == 1536.0);
  CHECK(parse_bytes("512B").value() == 512.0);
  CHECK(parse_bytes("1 MiB").value() == 1048576.0);
  CHECK(parse_bytes("2e3kB").value() == 2e6);
  CHECK(parse_bytes("8b").value() == 1.0);  // a bit is 1/8 byte
  CHECK(parse_bytes("1EiB").value() == std::ldexp(1.0, 60));
  // One correct rounding: "3.35TB" is the double nearest 3.35e12, not 3.35 * 1e12 rounded twice.
  CHECK(parse_bytes("3.35TB").value() == 3.35e12);
  CHECK(parse_bytes("0.1kB").value() == 100.0);
}

TEST_CASE("rates, times and FLOPs parse to their base units") {
  CHECK(parse_byte_rate("3.35TB/s").value() == 3.35e12);
  CHECK(parse_byte_rate("400Gb/s").value() == 50e9);
  CHECK(parse_byte_rate("64GiB/s").value() == 64.0 * (1 << 30));
  CHECK(parse_seconds("1.5us").value() == 1.5e-6);
  CHECK(parse_seconds("1.5\u00b5s").value() == 1.5e-6);
  CHECK(parse_seconds("10ms").value() == 10e-3);
  CHECK(parse_seconds("250ns").value() == 250e-9);
  CHECK(parse_seconds("3h").value() == 10800.0);
  CHECK(parse_seconds("5y").value() == 5 * 365.25 * 86400.0);  // Julian years
  CHECK(parse_seconds("2min").value() == 120.0);
  CHECK(parse_seconds("1d").value() == 86400.0);
  CHECK(parse_flop_rate("989TFLOPS").value() == 989e12);
  CHECK(parse_flop_rate("1.2PFLOP/s").value() == 1.2e15);
  CHECK(parse_flops("3.5PFLOP").value() == 3.5e15);
  CHECK(parse_flops("6ZFLOP").value() == 6e21);
  CHECK(parse_watts("700W").value() == 700.0);
  CHECK(parse_watts("1.2kW").value() == 1200.0);
  CHECK(to_string(Watts(120e3)) == "120kW");
  CHECK(display(Watts(700.0) * Seconds(2.0)) == "1.4 kJ");
}

TEST_CASE("printing is exact: parse(to_string(x)) == x") {
  for (double v :
       {1.0, 80.0 * (1 << 30), 80e9, 1536.0, 3.35e12, 1e-3, 0.1, 123456789.0, 1.0 / 3.0, 7e20, 0.0, 1.7e308})
    CHECK(parse_bytes(to_string(Bytes(v))).value() == v);
  for (double v : {1.5e-6, 1e-9, 2.5, 1.0 / 3.0, 86400.0, 3.7e-12, 0.0, 1e300, 1.7e308})
    CHECK(parse_seconds(to_string(Seconds(v))).value() == v);
  CHECK(to_string(Seconds(1e300)) == "1e+300s");  // no "infps": a unit whose count overflows is skipped
  for (double v : {989e12, 1.2e15, 67e12, 1.0 / 7.0, 0.0}) {
    CHECK(parse_flop_rate(to_string(FlopRate(v))).value() == v);
    CHECK(parse_flops(to_string(Flops(v))).value() == v);
  }
  for (double v : {3.35e12, 450e9, 50e9, 64.0 * (1 << 30), 1.0 / 3.0})
    CHECK(parse_byte_rate(to_string(ByteRate(v))).value() == v);
}

TEST_CASE("printing picks the natural prefix") {
  CHECK(to_string(Bytes(80.0 * (1 << 30))) == "80GiB");
  CHECK(to_string(Bytes(80e9)) == "80GB");
  CHECK(to_string(ByteRate(3.35e12)) == "3.35TB/s");
  CHECK(to_string(FlopRate(989e12)) == "989TFLOP/s");
  CHECK(to_string(Seconds(1.5e-6)) == "1.5us");
  CHECK(to_string(Seconds(4e-6)) == "4us");
  CHECK(to_string(Seconds(2.0)) == "2s");
  CHECK(display(Seconds(0.0123456)) == "12.35 ms");
  CHECK(display(Bytes(80.0 * (1 << 30))) == "80 GiB");
  CHECK(display_in(Bytes(512.0 * (1 << 20)), Bytes(80.0 * (1 << 30))) == "0.5 GiB");
  CHECK(display_in(Bytes(0.0), Bytes(80e9)) == "0 GiB");
  CHECK(display(FlopRate(989e12)) == "989 TFLOP/s");
}

TEST_CASE("every error class is rejected with a message saying what was expected") {
  auto message = [](auto parse, const char* text) {
    try {
      parse(text);
    } catch (const UnitError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // Missing unit, unknown unit, no number, trailing junk.
  CHECK(message(parse_bytes, "80").find("has no unit") != std::string::npos);
  CHECK(message(parse_bytes, "80G").find("unknown unit \"G\"") != std::string::npos);
  CHECK(message(parse_bytes, "GiB").find("expected a number") != std::string::npos);
  CHECK(message(parse_bytes, "80GiB ").find("unknown unit") != std::string::npos);
  CHECK(message(parse_bytes, "80  GiB").find("unknown unit") != std::string::npos);
  // Ambiguous units.
  CHECK(message(parse_bytes, "80KB").find("ambiguous") != std::string::npos);
  CHECK(message(parse_flop_rate, "989TFLOPs").find("ambiguous") != std::string::npos);
  // Wrong dimension.
  CHECK(message(parse_bytes, "3.35TB/s").find("unknown unit") != std::string::npos);
  CHECK(message(parse_byte_rate, "3.35TB").find("unknown unit") != std::string::npos);
  CHECK(message(parse_flops, "989TFLOPS").find("unknown unit") != std::string::npos);
  CHECK(message(parse_seconds, "5GB").find("unknown unit") != std::string::npos);
  // Wrong case and prefixes that do not apply.
  CHECK(message(parse_bytes, "80gb").find("unknown unit") != std::string::npos);
  CHECK(message(parse_bytes, "80mB").find("unknown unit") != std::string::npos);
  CHECK(message(parse_flops, "1GiFLOP").find("unknown unit") != std::string::npos);
  CHECK(message(parse_seconds, "1Ms").find("unknown unit") != std::string::npos);
  CHECK(message(parse_watts, "700J").find("unknown unit") != std::string::npos);
  CHECK(message(parse_watts, "1KW").find("unknown unit") != std::string::npos);
  // Out of range.
  CHECK(message(parse_bytes, "1e400B").find("out of range") != std::string::npos);
  // The message quotes the input and gives examples.
  CHECK(message(parse_bytes, "80G").find("\"80G\"") != std::string::npos);
  CHECK(message(parse_bytes, "80G").find("80GiB") != std::string::npos);
}

TEST_CASE("quantities of different dimensions combine into the right type") {
  Seconds t = Bytes(1e9) / ByteRate(1e11);
  CHECK(t.value() == zs::test::approx(0.01));
  Seconds c = Flops(989e12) / FlopRate(989e12);
  CHECK(c.value() == 1.0);
  CHECK((ByteRate(2.0) * Seconds(3.0)).value() == 6.0);
}

TEST_CASE("exponents that overflow or underflow are refused, not read as 0") {
  CHECK(unit_error(parse_bytes, "1e2147483647GB") == "\"1e2147483647GB\" is out of range for a size");
  CHECK(unit_error(parse_seconds, "1e-400us") ==
        "\"1e-400us\" is too small to represent (it would be read as 0)");
  CHECK(parse_seconds("0us").value() == 0);
  CHECK(parse_seconds("1e-320s").value() > 0);  // subnormal, but not 0
}

TEST_CASE("unit text echoed in an error is escaped onto one line") {
  const std::string m = unit_error(parse_bytes, "80\nzettasim: error: forged");
  CHECK(m.find('\n') == std::string::npos);
  CHECK(m.find("\"80\\nzettasim: error: forged\"") == 0);
}
