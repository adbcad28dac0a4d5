// Fuzz target: a quantity with its unit ("80GiB", "1.5us", "989TFLOP/s"), read by every unit parser;
// each either refuses it with a one-line UnitError or accepts a finite value that prints back to itself
// (parse(to_string(q)) == q).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/units.hpp"
#include "fuzz_contract.hpp"

namespace {

template <class Quantity>
void check_round_trip(Quantity (*parse)(std::string_view), std::string_view text) {
  using namespace zs;
  Quantity q{0.0};
  try {
    q = parse(text);
  } catch (const core::UnitError& e) {  // the parsers' refusal, which readers turn into an InputError
    if (std::string(e.what()).find('\n') != std::string::npos)
      fuzz::finding("a UnitError spans several lines");
    return;
  }
  if (!std::isfinite(q.value())) fuzz::finding("accepted a value that is not finite: " + std::string(text));
  const std::string printed = core::to_string(q);
  double reread = 0;
  try {
    reread = parse(printed).value();
  } catch (const core::UnitError& e) {
    fuzz::finding("\"" + std::string(text) + "\" prints as \"" + printed +
                  "\", which is refused: " + e.what());
  }
  if (reread != q.value())
    fuzz::finding("\"" + std::string(text) + "\" prints as \"" + printed + "\", which reads differently");
  (void)core::display(q);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zs;
  const std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::check_contract([&] {
    check_round_trip(&core::parse_bytes, text);
    check_round_trip(&core::parse_seconds, text);
    check_round_trip(&core::parse_flops, text);
    check_round_trip(&core::parse_flop_rate, text);
    check_round_trip(&core::parse_byte_rate, text);
    check_round_trip(&core::parse_watts, text);
  });
  return 0;
}
